"""``site-builder check-sources`` against web servers on 127.0.0.1: each kind of answer a
source can give is reported at the ``Source(`` line that cites it, politely asked (one user
agent, two connections to a host, retries that honour ``Retry-After``), and a second run
within ``source_max_age`` asks nothing at all."""

from __future__ import annotations

import json
import shutil
import socket
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from site_builder.sources.client import USER_AGENT
from tests.support.sites import HEADER, SETTINGS, SITES, MakeSite, RunCli
from tests.support.web import Reply, Route, Seen, Web, always, html, pdf, serving

QUOTE = (
    "A request method is idempotent if the intended effect on the server of multiple identical "
    "requests is the same."
)
PAGE = (
    "<html><head><title>Methods</title><script>var hidden = 1;</script></head><body>"
    "<h1>Idempotent\u00a0methods</h1><p>A request method is considered \u201cidempotent\u201d if "
    "the intended effect on the server of multiple identical requests with that method is the "
    "same as the effect for a single such request.</p>"
    "<p>A request method is <em>idempotent</em> if the intended effect on the server of multiple "
    "identical requests is the same.</p></body></html>"
)
"""A page holding :data:`QUOTE` in another typography (a no-break space, inline markup)."""


def batch(sources: Sequence[tuple[str, str]], *, slug: str = "cited", draft: bool = False) -> str:
    """A batch with one revision citing ``sources`` (address, quote), each ``Source(`` on line
    9 + its position: the first on line 9, the second on line 10."""
    lines = [
        f"        Source(title='S{n}', url={url!r}, note='n'" + (f", quote={quote!r})," if quote else "),")
        for n, (url, quote) in enumerate(sources, start=1)
    ]
    return (
        HEADER
        + f"""
revisions = [revision(
    slug={slug!r}, title="Cited", categories=["HTTP"], excerpt="One effect.", draft={draft},
    published="2024-01-02", body=[paragraph("Enough words to pass the tiny limit of this site.")],
    sources=[
"""
        + "\n".join(lines)
        + "\n    ],\n)]\n"
    )


def test_the_batch_puts_each_source_on_its_line(make_site: MakeSite, run_cli: RunCli) -> None:
    text = batch([("https://a.example/", ""), ("https://b.example/", "q")])
    assert text.splitlines()[8].lstrip().startswith("Source(title='S1'")
    assert text.splitlines()[9].lstrip().startswith("Source(title='S2'")
    assert run_cli(["validate", "--root", str(make_site({"articles/cited.py": text}))]).code == 0


def tagged(text: str, etag: str) -> Route:
    """An HTML page with an ``ETag``, answering 304 to a request that names it."""

    def reply(seen: Seen, _before: int) -> Reply:
        if seen.headers.get("if-none-match") == etag:
            return Reply(304, headers=(("ETag", etag),))
        return Reply(body=text.encode("utf-8"), headers=(("Content-Type", "text/html"), ("ETag", etag)))

    return reply


@pytest.fixture
def web() -> Iterator[Web]:
    def busy(_seen: Seen, before: int) -> Reply:  # too many requests once, then the page
        return Reply(429, headers=(("Retry-After", "1"),)) if before == 0 else Reply(body=PAGE.encode())

    def flaky(_seen: Seen, before: int) -> Reply:  # a server's passing trouble, once
        return Reply(503) if before == 0 else Reply(body=PAGE.encode())

    routes = {
        "/page": tagged(PAGE, '"v1"'),
        "/changed": html("<p>A request method is safe if it changes nothing.</p>"),
        "/gone": always(Reply(404, b"<p>gone</p>")),
        "/slow": always(Reply(body=PAGE.encode(), delay=30)),  # past every try's timeout
        "/busy": busy,
        "/flaky": flaky,
        "/later": always(Reply(429, headers=(("Retry-After", "3600"),))),
        "/old": always(Reply(301, headers=(("Location", "/page"),))),
        "/for-now": always(Reply(302, headers=(("Location", "/page"),))),
        "/paper.pdf": always(Reply(body=pdf(QUOTE), headers=(("Content-Type", "application/pdf"),))),
        "/text.txt": always(Reply(body=QUOTE.upper().encode(), headers=(("Content-Type", "text/plain"),))),
        "/broken.pdf": always(
            Reply(body=b"%PDF-1.4 cut short", headers=(("Content-Type", "application/pdf"),))
        ),
    }
    with serving(routes) as running:
        yield running


def check(run_cli: RunCli, root: Path, *args: str) -> tuple[int, list[str]]:
    # 2 s: a loaded machine (the whole suite on 2 cores, Chromium among it) must not make a
    # loopback answer late; /slow answers after 30 s, past all three tries.
    result = run_cli(["check-sources", "--root", str(root), "--timeout", "2", *args])
    return result.code, result.err.splitlines()


def test_each_kind_of_answer_is_reported_at_the_line_of_its_source(
    make_site: MakeSite, run_cli: RunCli, web: Web
) -> None:
    sources = [
        (web.url("/page"), QUOTE),
        (web.url("/changed"), QUOTE),
        (web.url("/gone"), ""),
        (web.url("/slow"), ""),
        (web.url("/busy"), QUOTE),
        (web.url("/flaky"), ""),
        (web.url("/later"), ""),
        (web.url("/old"), QUOTE),
        (web.url("/for-now"), ""),
        (web.url("/paper.pdf"), QUOTE),
        (web.url("/text.txt"), QUOTE),
        (web.url("/broken.pdf"), QUOTE),
    ]
    root = make_site({"articles/cited.py": batch(sources)})
    code, err = check(run_cli, root)
    at = "articles/cited.py"
    assert code == 1
    assert err == [
        f"{at}:10: cited: source {web.url('/changed')} does not contain the quote",
        f"{at}:11: cited: source {web.url('/gone')} answers 404 Not Found",
        f"{at}:12: cited: source {web.url('/slow')} does not answer within 2 s (3 tries)",
        f"{at}:15: cited: source {web.url('/later')} answers 429 Too Many Requests and asks to wait "
        "3600 s, longer than the 60 s this command waits",
        f"{at}:16: cited: warning: source {web.url('/old')} has moved for good (permanent redirect) "
        f"to {web.url('/page')}: cite that",
        # case is kept: the same words in capitals are not the quote
        f"{at}:19: cited: source {web.url('/text.txt')} does not contain the quote",
        f"{at}:20: cited: source {web.url('/broken.pdf')} is a PDF whose text cannot be read to find "
        "the quote",
        "6 problems and 1 warning found",
        "checked 12 sources at 12 addresses: 12 asked (18 requests), 0 answered from the cache",
    ]
    busy = web.sent("/busy")
    assert len(busy) == 2 and busy[1].at - busy[0].at >= 0.95  # Retry-After: 1 honoured
    assert len(web.sent("/flaky")) == 2 and len(web.sent("/later")) == 1 and len(web.sent("/gone")) == 1
    assert {each.headers["user-agent"] for each in web.seen} == {USER_AGENT}


def test_the_longest_part_of_a_quote_the_page_still_holds_is_named(
    make_site: MakeSite, run_cli: RunCli, web: Web
) -> None:
    changed = QUOTE.replace("multiple identical requests", "several identical requests")
    root = make_site({"articles/cited.py": batch([(web.url("/page"), changed), (web.url("/for-now"), "")])})
    code, err = check(run_cli, root)
    assert code == 1
    assert err[0] == (
        f"articles/cited.py:9: cited: source {web.url('/page')} does not contain the quote; the longest "
        'part of it on the page: "A request method is idempotent if the intended effect on the server of"'
    )


def _age_kept_answers(root: Path, days: float) -> None:
    """Make every answer ``check-sources`` kept for the site ``days`` old."""
    for path in (root / ".site-builder-cache/sources").glob("*.json"):
        kept = json.loads(path.read_text("utf-8"))
        path.write_text(json.dumps({**kept, "fetched": time.time() - days * 86400}), "utf-8")


def test_a_second_run_within_the_max_age_asks_nothing_and_a_later_one_asks_if_it_changed(
    make_site: MakeSite, run_cli: RunCli, web: Web
) -> None:
    sources = [(web.url("/page"), QUOTE), (web.url("/paper.pdf"), QUOTE), (web.url("/for-now"), "")]
    root = make_site({"articles/cited.py": batch(sources)})
    asked = "checked 3 sources at 3 addresses: 3 asked (4 requests), 0 answered from the cache"
    kept = "checked 3 sources at 3 addresses: 0 asked (0 requests), 3 answered from the cache"
    assert check(run_cli, root) == (0, [asked])
    assert len(web.seen) == 4  # /page, the PDF, and /for-now's redirect to /page
    assert check(run_cli, root) == (0, [kept])
    _age_kept_answers(root, 6.9)  # the default source_max_age is 7 days
    assert check(run_cli, root) == (0, [kept])
    assert len(web.seen) == 4
    _age_kept_answers(root, 7.1)
    assert check(run_cli, root) == (0, [asked])
    assert len(web.seen) == 8
    assert web.sent("/page")[-1].headers.get("if-none-match") == '"v1"'  # answered 304: the kept text holds
    (root / "pyproject.toml").write_text(SETTINGS + "source_max_age = 0\n", "utf-8")
    assert check(run_cli, root) == (0, [asked])  # 0: every run asks
    assert len(web.seen) == 12


def test_a_quote_added_later_fetches_the_page_it_needs(
    make_site: MakeSite, run_cli: RunCli, web: Web
) -> None:
    root = make_site({"articles/cited.py": batch([(web.url("/page"), ""), (web.url("/gone"), "")])})
    assert check(run_cli, root)[0] == 1
    (root / "articles/cited.py").write_text(batch([(web.url("/changed"), QUOTE), (web.url("/page"), QUOTE)]))
    code, err = check(run_cli, root)
    assert code == 1 and len(web.sent("/page")) == 2
    assert err[0] == f"articles/cited.py:9: cited: source {web.url('/changed')} does not contain the quote"
    assert err[1:] == [
        "1 problem found",
        "checked 2 sources at 2 addresses: 2 asked (2 requests), 0 answered from the cache",
    ]


def test_a_page_cited_at_two_fragments_is_asked_once(make_site: MakeSite, run_cli: RunCli, web: Web) -> None:
    sources = [(web.url("/page") + "#methods", QUOTE), (web.url("/page") + "#idempotent", "")]
    root = make_site({"articles/cited.py": batch(sources)})
    assert check(run_cli, root) == (
        0,
        ["checked 2 sources at 1 address: 1 asked (1 request), 0 answered from the cache"],
    )
    assert [each.path for each in web.seen] == ["/page"]


def test_at_most_two_requests_go_to_one_host_at_once(make_site: MakeSite, run_cli: RunCli) -> None:
    routes: dict[str, Route] = {f"/p{n}": always(Reply(body=PAGE.encode(), delay=1)) for n in range(6)}
    with serving(routes) as web:
        root = make_site({"articles/cited.py": batch([(web.url(path), "") for path in routes])})
        assert check(run_cli, root)[0] == 0
    assert len(web.seen) == 6 and web.most_busy == 2


def test_only_the_latest_revision_of_a_published_article_is_asked_about(
    make_site: MakeSite, run_cli: RunCli, web: Web
) -> None:
    later = (
        batch([(web.url("/page"), ""), (web.url("/for-now"), "")])
        .replace(
            'published="2024-01-02"', 'published="2024-01-02", revised="2024-02-01", changes="Newer sources."'
        )
        .replace("Enough words", "Enough other words")
    )
    root = make_site(
        {
            "articles/a_first.py": batch([(web.url("/gone"), ""), (web.url("/changed"), "")]),
            "articles/b_later.py": later,
            "articles/c_draft.py": batch(
                [(web.url("/later"), ""), (web.url("/old"), "")], slug="draft", draft=True
            ),
        }
    )
    code, err = check(run_cli, root)
    assert (code, err) == (
        0,
        ["checked 2 sources at 2 addresses: 2 asked (3 requests), 0 answered from the cache"],
    ), err
    assert {each.path for each in web.seen} == {"/page", "/for-now"}
    code, err = check(run_cli, root, "--drafts")
    assert code == 1 and err[0].startswith("articles/c_draft.py:9: draft: source ")


def test_a_site_with_problems_asks_nothing(make_site: MakeSite, run_cli: RunCli, web: Web) -> None:
    root = make_site({"articles/cited.py": batch([(web.url("/page"), "")])})  # one source of two
    code, err = check(run_cli, root)
    assert code == 1 and web.seen == []
    assert err[-1] == "check-sources reads a valid site only: nothing was asked"


def test_json_and_github_formats_print_the_findings_on_stdout(
    make_site: MakeSite, run_cli: RunCli, web: Web
) -> None:
    root = make_site({"articles/cited.py": batch([(web.url("/gone"), ""), (web.url("/old"), "")])})
    result = run_cli(["check-sources", "--root", str(root), "--format", "json"])
    assert result.code == 1
    assert json.loads(result.out) == [
        {
            "path": "articles/cited.py",
            "line": 9,
            "slug": "cited",
            "rule": "source-unreachable",
            "message": f"source {web.url('/gone')} answers 404 Not Found",
            "severity": "error",
        },
        {
            "path": "articles/cited.py",
            "line": 10,
            "slug": "cited",
            "rule": "source-moved",
            "message": f"source {web.url('/old')} has moved for good (permanent redirect) to "
            f"{web.url('/page')}: cite that",
            "severity": "warning",
        },
    ]
    result = run_cli(["check-sources", "--root", str(root), "--format", "github"])
    assert result.out.splitlines() == [
        "::error file=articles/cited.py,line=9,title=source-unreachable::cited: source "
        f"{web.url('/gone')} answers 404 Not Found",
        "::warning file=articles/cited.py,line=10,title=source-moved::cited: source "
        f"{web.url('/old')} has moved for good (permanent redirect) to {web.url('/page')}: cite that",
    ]


def test_a_host_that_cannot_be_found_and_a_port_nobody_answers(
    make_site: MakeSite, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    resolve = socket.getaddrinfo

    def no_such_host(host: str, *args: object, **kwargs: object) -> object:
        if str(host).endswith(".invalid"):  # never asked of a resolver: refused here
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return resolve(host, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
    with socket.socket() as closed:  # a port just freed: nothing listens there
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    sources = [("https://no-such-host.invalid/page", ""), (f"http://127.0.0.1:{port}/", "")]
    root = make_site({"articles/cited.py": batch(sources)})
    code, err = check(run_cli, root)
    assert code == 1
    assert err[:2] == [
        "articles/cited.py:9: cited: source https://no-such-host.invalid/page cannot be reached: "
        "no address is found for no-such-host.invalid (DNS)",
        f"articles/cited.py:10: cited: source http://127.0.0.1:{port}/ cannot be reached: "
        f"nothing answers at 127.0.0.1 port {port}",
    ]


def test_a_proxy_from_the_environment_carries_the_requests(
    make_site: MakeSite, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serving({"http://docs.example/page": html(PAGE)}) as proxy:
        monkeypatch.setenv("http_proxy", proxy.url(""))
        monkeypatch.delenv("no_proxy", raising=False)
        monkeypatch.delenv("NO_PROXY", raising=False)
        root = make_site(
            {
                "articles/cited.py": batch(
                    [("http://docs.example/page", QUOTE), ("http://docs.example/gone", "")]
                )
            }
        )
        code, err = check(run_cli, root)
    assert code == 1
    assert err[0] == "articles/cited.py:10: cited: source http://docs.example/gone answers 404 Not Found"
    assert sorted(each.path for each in proxy.seen) == [
        "http://docs.example/gone",
        "http://docs.example/page",
    ]


def test_timeout_must_be_a_positive_number(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site({"articles/cited.py": batch([("https://a.example/", ""), ("https://b.example/", "")])})
    result = run_cli(["check-sources", "--root", str(root), "--timeout", "0"])
    assert result.code == 2 and "--timeout: must be more than 0 seconds" in result.err


@pytest.mark.parametrize("flags", [(), ("--drafts", "--future")], ids=["published", "drafts-future"])
def test_on_the_all_features_site_it_asks_the_sources_of_each_latest_revision_revisions_lists(
    tmp_path: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch, flags: tuple[str, ...]
) -> None:
    """Later revisions in other batches, a draft revision of a published article, a draft, a
    scheduled article: what is asked is what ``revisions --latest`` cites, and every quote is
    looked for. The site's https sources are read as http, for the stand-in proxy to answer."""
    root = tmp_path / "site"
    shutil.copytree(
        SITES / "all_features", root, ignore=shutil.ignore_patterns(".site-builder-cache", "build")
    )
    for batch_file in (root / "articles").glob("*.py"):
        batch_file.write_text(batch_file.read_text("utf-8").replace("https://", "http://"), "utf-8")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1704067200")  # 2024-01-01: the 2099 note is scheduled
    listed = run_cli(["revisions", "--root", str(root), "--latest", *flags])
    assert listed.code == 0, listed.err
    cited = [source for revision in json.loads(listed.out) for source in revision["sources"]]
    quotes = " ".join(source.get("quote", "") for source in cited)
    assert quotes.strip(), "the all-features site quotes a source"
    with serving({}, otherwise=always(Reply(body=f"<p>{quotes}</p>".encode()))) as proxy:
        monkeypatch.setenv("http_proxy", proxy.url(""))
        monkeypatch.setenv("no_proxy", "")
        monkeypatch.setenv("NO_PROXY", "")
        code, err = check(run_cli, root, *flags)
    addresses = {source["url"] for source in cited}
    assert (code, err) == (
        0,
        [
            f"checked {len(cited)} sources at {len(addresses)} addresses: {len(addresses)} asked "
            f"({len(addresses)} requests), 0 answered from the cache"
        ],
    )
    assert sorted(each.path for each in proxy.seen) == sorted(addresses)
