"""Documentation: ``check-sources``, which asks every cited page whether it still answers and
still holds the passage an article quotes; shown against a stand-in web on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

from _tool import Session, run, session, site
from _web import Page, Web, web

from site_builder import (
    Source,
    code_block,
    data_table,
    fixture,
    heading,
    paragraph,
    revision,
    transcript,
    unordered_list,
)

GUIDES = """\
from site_builder import Source, paragraph, revision

revisions = [
    revision(
        slug="retries",
        title="Retrying a request",
        categories=["HTTP"],
        excerpt="When a request may be sent again.",
        published="2026-12-01",
        body=[paragraph("A client may send an idempotent request again after a failure.")],
        sources=[
            Source(
                title="HTTP methods",
                url="http://docs.example/methods",
                note="which methods are idempotent",
                quote='A method is "idempotent" if sending it twice has the effect of sending it once.',
            ),
            Source(title="Retry guide", url="http://docs.example/old-guide", note="backoff"),
        ],
    ),
    revision(
        slug="keys",
        title="Idempotency keys",
        categories=["HTTP"],
        excerpt="How long a server remembers a key.",
        published="2026-12-01",
        body=[paragraph("A key is remembered for a while, then forgotten.")],
        sources=[
            Source(
                title="Keys",
                url="http://docs.example/keys",
                note="how long a key is kept",
                quote="The server keeps each key for 24 hours.",
            ),
            Source(title="Limits", url="http://docs.example/limits", note="request limits"),
        ],
    ),
]
"""
"""``articles/guides.py`` of the demonstration site: four sources, two of them quoted."""

PAGES = {
    "http://docs.example/methods": Page(
        body="<h1>Methods</h1><p>A method is \u201cidempotent\u201d if sending it twice has "
        "the effect of sending it\u00a0once.</p>"
    ),
    "http://docs.example/old-guide": Page(301, headers=(("Location", "http://docs.example/guide"),)),
    "http://docs.example/guide": Page(body="<h1>Retries</h1><p>Wait longer after each failure.</p>"),
    "http://docs.example/keys": Page(
        body="<h1>Keys</h1><p>The server keeps each key for <b>48 hours</b>.</p>", headers=(("ETag", '"k2"'),)
    ),
    "http://docs.example/limits-v2": Page(body="<h1>Limits</h1><p>Ten requests a second.</p>"),
}
"""The stand-in web: ``/limits`` is gone (404), ``/old-guide`` moved for good to ``/guide``."""

FIXED = (
    GUIDES.replace("http://docs.example/old-guide", "http://docs.example/guide")
    .replace("for 24 hours", "for 48 hours")
    .replace("http://docs.example/limits", "http://docs.example/limits-v2")
)
"""The batch once its author followed the findings."""


def _check(root: Path, stand_in: Web, *flags: str) -> Session:
    """``site-builder check-sources FLAGS`` typed in the site, its requests sent to ``stand_in``."""
    return session(root, ["check-sources", *flags], env=stand_in.environment())


@fixture
def checking() -> dict:
    """``check-sources`` three times on one site: first, again at once, then after the fixes."""
    root = site({"articles/guides.py": GUIDES})
    with web(PAGES) as stand_in:
        first = _check(root, stand_in)
        asked_first = list(stand_in.asked)
        again = _check(root, stand_in)
        asked_again = stand_in.asked[len(asked_first) :]
        (root / "articles/guides.py").write_text(FIXED, "utf-8")
        fixed = _check(root, stand_in)
        asked_fixed = stand_in.asked[len(asked_first) + len(asked_again) :]
    return {
        "twice": first.lines + again.lines,
        "fixed": fixed.lines,
        "checks": {
            "exitCodes": first.codes + again.codes + fixed.codes == [1, 1, 0],
            "firstAskedEachAddressOnceAndFollowedTheRedirect": sorted(asked_first)
            == sorted([*[*PAGES][:4], "http://docs.example/limits"]),
            "againAskedOnlyTheDeadAddress": asked_again == ["http://docs.example/limits"],
            "fixedAskedOnlyTheNewAddresses": sorted(asked_fixed)
            == ["http://docs.example/guide", "http://docs.example/limits-v2"],
        },
    }


@fixture
def annotated() -> dict:
    """``check-sources --format github``: the findings as GitHub Actions annotations on stdout."""
    root = site({"articles/guides.py": GUIDES})
    with web(PAGES) as stand_in:
        ran = _check(root, stand_in, "--format", "github")
        apart = run(root, "check-sources", "--format", "github", env=stand_in.environment())
    annotations = [line for line in ran.lines if line.startswith("::")]
    return {
        "transcript": ran.lines,
        "checks": {
            "exitsWithOne": ran.codes == [1],
            "oneAnnotationPerFinding": len(annotations) == 3,
            "annotationsOnStdoutOnly": apart.stdout.splitlines() == annotations
            and not any(line.startswith("::") for line in apart.lines),
        },
    }


checking_sources = revision(
    slug="checking-sources",
    title="Checking sources",
    categories=["Reference"],
    excerpt="check-sources asks every cited page whether it still answers and still holds the "
    "passage an article quotes, politely and through a cache.",
    published="2026-12-05",
    body=[
        paragraph(
            "Every revision cites its sources, and `validate` checks that each one has a title, a "
            "note and an address of an allowed form. It does not open them: `build` and `validate` "
            "never use the network. Pages move, disappear and get rewritten after an article cites "
            "them, so a site that stays true needs someone to look again now and then. "
            "`site-builder check-sources` is that look: it asks every source of each article's "
            "latest revision whether it still answers, and whether it still says what the article "
            "quotes it for."
        ),
        paragraph(
            "A source says what it backs with `quote`: a short passage of the cited page, copied as "
            "the page has it. Readers see it under the source, as a quotation; `check-sources` "
            "looks for it in the page's text. Give a quote where the article's claim rests on one "
            "sentence of the source — a paragraph of an RFC, a line of release notes — and leave it "
            "out where the source as a whole is the reference."
        ),
        heading("Running it"),
        paragraph(
            "Here is a site of one batch, `articles/guides.py`, with two articles and four sources, "
            "two of them quoted:"
        ),
        code_block(GUIDES, language="python"),
        paragraph(
            "For this page the addresses are made up (`docs.example`) and answered by a small "
            "server on this machine that the command reaches through `http_proxy`, as it would "
            "reach a real proxy. That server answers the first quoted page with the passage in "
            "other typography (curly quotes, a no-break space), has rewritten the second page to "
            "say 48 hours, moved the retry guide for good to `/guide`, and has no `/limits`. The "
            "first run, then the same command again at once:"
        ),
        transcript(
            checking,
            """
            $ site-builder check-sources
            articles/guides.py:18: retries: warning: source http://docs.example/old-guide has moved for good (permanent redirect) to http://docs.example/guide: cite that
            articles/guides.py:29: keys: source http://docs.example/keys does not contain the quote; the longest part of it on the page: "The server keeps each key for"
            articles/guides.py:35: keys: source http://docs.example/limits answers 404 Not Found
            2 problems and 1 warning found
            checked 4 sources at 4 addresses: 4 asked (5 requests), 0 answered from the cache
            $ site-builder check-sources
            articles/guides.py:18: retries: warning: source http://docs.example/old-guide has moved for good (permanent redirect) to http://docs.example/guide: cite that
            articles/guides.py:29: keys: source http://docs.example/keys does not contain the quote; the longest part of it on the page: "The server keeps each key for"
            articles/guides.py:35: keys: source http://docs.example/limits answers 404 Not Found
            2 problems and 1 warning found
            checked 4 sources at 4 addresses: 1 asked (1 request), 3 answered from the cache
            """,  # noqa: E501
            key="twice",
        ),
        paragraph(
            "Once more after the author followed the findings (the new addresses, the quote as the "
            "page now has it), it finds nothing and exits with 0:"
        ),
        transcript(
            checking,
            """
            $ site-builder check-sources
            checked 4 sources at 4 addresses: 2 asked (2 requests), 2 answered from the cache
            """,
            key="fixed",
        ),
        paragraph(
            "Each finding is at the line of the `Source(` it is about, in the usual "
            "`PATH:LINE: SLUG: message` form, so an editor jumps to it. The first quote was found: "
            "typography aside, the page says what the article quotes. The second was not, and the "
            "message names the longest run of the quote's words that the page still has (when it "
            "is at least a third of them), which is usually enough to see what changed. The "
            "moved guide is a warning: the page still answers, but the article should cite the "
            "address it lives at now. The exit code is 1 when there is at least one error, as "
            "for `validate`. A published article is mended like any correction, in a later "
            "revision ([Correcting an article](/articles/revisions-over-time/)): the new address "
            "or quote, and in the text what the source supports now — the check is in the latest "
            "revision only, so the earlier ones keep citing what they cited on their date."
        ),
        paragraph(
            "The second run asked only about `/limits`: the three addresses that answered were "
            "kept (see [What it keeps](#what-it-keeps)), and a dead address is asked again on "
            "every run. The third run asked only the two new addresses; the corrected quote was "
            "looked for in the kept text of `/keys`, without asking its server again."
        ),
        heading("What it reports"),
        data_table(
            "The findings of check-sources",
            ["rule", "severity", "when"],
            [
                [
                    "`source-unreachable`",
                    "error",
                    "No page came back: the host has no address (DNS), nothing answers at its "
                    "port, the TLS connection fails (an expired or wrong certificate, for one), "
                    "no answer within the timeout, a status other than 2xx, more than 10 "
                    "redirects — each said in the message.",
                ],
                [
                    "`source-moved`",
                    "warning",
                    "A permanent redirect (301 or 308) on the way: the message names where the last "
                    "one led. Temporary redirects (302, 303, 307) are followed without a word.",
                ],
                [
                    "`source-quote`",
                    "error",
                    "The page answered but its text does not contain the quote, or it is a PDF "
                    "whose text cannot be read.",
                ],
            ],
        ),
        paragraph(
            "Only the latest revision of each article is checked — an earlier revision cites what "
            "was true on its date — and only the revisions a build publishes: `--drafts` and "
            "`--future` add the others, as for `build`. Only `http` and `https` addresses are asked "
            "about; a page cited by several articles, or at several `#fragments`, is asked once and "
            "reported at each `Source(`. The site must be valid first: with validation problems the "
            "command prints them and asks nothing. `--format json` and `--format github` print the "
            "findings on stdout as `validate` prints its problems (see [Checking in "
            "CI](/articles/continuous-integration/)), and the line that counts what was asked on "
            "stderr:"
        ),
        transcript(
            annotated,
            """
            $ site-builder check-sources --format github
            ::warning file=articles/guides.py,line=18,title=source-moved::retries: source http://docs.example/old-guide has moved for good (permanent redirect) to http://docs.example/guide: cite that
            ::error file=articles/guides.py,line=29,title=source-quote::keys: source http://docs.example/keys does not contain the quote; the longest part of it on the page: "The server keeps each key for"
            ::error file=articles/guides.py,line=35,title=source-unreachable::keys: source http://docs.example/limits answers 404 Not Found
            checked 4 sources at 4 addresses: 4 asked (5 requests), 0 answered from the cache
            """,  # noqa: E501
        ),
        heading("How a quote is matched"),
        paragraph(
            "A quote is looked for the way a reader would look for it. An HTML page becomes the "
            "text it shows: scripts, styles and the `<head>` are left out, and block elements "
            "(paragraphs, headings, list items, table cells) are kept apart by a space while inline "
            "markup is not, so `<b>48</b> hours` reads `48 hours`. A PDF becomes the text of its "
            "pages (read with pypdf), a plain text file its text. Then both the page's text and the "
            "quote are normalised the same way:"
        ),
        unordered_list(
            [
                "Unicode NFKC: a no-break space is a space, a ligature its letters, a full-width "
                "letter its ordinary one.",
                "Curly quotes and primes become `'` and `\"`; hyphens, en and em dashes and the "
                "minus sign become `-`; an ellipsis becomes `...`; soft hyphens and zero-width "
                "characters are dropped.",
                "A word wrapped after its hyphen at the end of a line, as a plain-text RFC "
                "wraps `non-` and `idempotent`, is read as the one word `non-idempotent`.",
                "Every run of white space, line breaks included, is one space.",
                "Case is kept: `Idempotent` is not `idempotent`. A quote is a copy, and a change "
                "of case can change what a sentence says (a `MUST` in an RFC).",
            ]
        ),
        heading("How it asks"),
        paragraph(
            "`check-sources` is a client of other people's servers, so it behaves as the retry "
            "articles of this kind of site recommend:"
        ),
        unordered_list(
            [
                "It names itself: every request carries `User-Agent: site-builder/VERSION (check-sources)`.",
                "At most two connections to one host at a time, and eight addresses asked at once in all.",
                "A timeout of 10 seconds to connect and for each read of an answer; "
                "`--timeout S` changes it.",
                "A timeout, a dropped connection, a 429 or a 500, 502, 503 or 504 is asked again, "
                "three attempts in all: after a `Retry-After` the server sends (seconds or a "
                "date), or else after about 1 and then 2 seconds (with random jitter, so that "
                "many clients do not come back together). A server that asks to wait more than "
                "60 seconds is reported, not waited for. A missing host, a refused connection "
                "and a TLS failure are not asked again: they do not pass in seconds.",
                "Redirects are followed one at a time, at most 10, each hop checked as above.",
                "At most 10 MB of an answer is read.",
                "The usual proxy variables are obeyed: `https_proxy`, `http_proxy` and `no_proxy` "
                "(as curl and pip read them).",
            ]
        ),
        heading("What it keeps"),
        paragraph(
            "What a server answered is kept in `.site-builder-cache/sources/`, one small JSON "
            "file per address: when it answered, its `ETag` and `Last-Modified` headers, where it "
            "moved, and the page's text when a quote needs it. A run within `source_max_age` "
            "days of that answer (a setting, 7 by default; see [Settings](/articles/settings/)) "
            "does not ask that server again; a later run asks only whether the page changed "
            "(`If-None-Match`, `If-Modified-Since`), and a server that says it has not (304) "
            "sends nothing more. A failure is never kept: a dead address is asked again each "
            "run, so it is reported until it is fixed and not a day longer. A quote added to "
            "a source whose text was not kept makes the next run fetch the page. Deleting the "
            "folder is always safe; `build` leaves it alone. `source_max_age = 0` asks every "
            "server on every run."
        ),
        heading("In CI"),
        paragraph(
            "Sources change on their own schedule, not when you push, so the workflow "
            "`site-builder init` writes runs `check-sources` once a week (Monday morning, UTC) in "
            "a job of its own, with its findings as annotations; the job fails when a source is "
            "broken, and opens nothing — you see the failed run and its annotations. It keeps "
            "`.site-builder-cache/sources/` between runs with `actions/cache`, so each week's run "
            "asks only whether pages changed. A push or a pull request never runs it: "
            "`build` and `validate` stay offline and a slow server elsewhere never blocks a merge. "
            "Run it yourself whenever you like; it holds the site's lock like the other commands "
            "that read the cache, so a `build` started meanwhile waits for it."
        ),
    ],
    sources=[
        Source(
            title="RFC 9110: HTTP Semantics, 15.4 Redirection 3xx",
            url="https://www.rfc-editor.org/rfc/rfc9110.html#name-redirection-3xx",
            note="301 and 308 are permanent, 302, 303 and 307 temporary",
        ),
        Source(
            title="RFC 9110: HTTP Semantics, 10.2.3 Retry-After",
            url="https://www.rfc-editor.org/rfc/rfc9110.html#name-retry-after",
            note="a number of seconds or an HTTP date",
        ),
        Source(
            title="RFC 9110: HTTP Semantics, 13.1 Preconditions",
            url="https://www.rfc-editor.org/rfc/rfc9110.html#name-preconditions",
            note="If-None-Match and If-Modified-Since, answered by 304 Not Modified",
        ),
        Source(
            title="urllib3: User Guide",
            url="https://urllib3.readthedocs.io/en/stable/user-guide.html",
            note="the HTTP client check-sources uses: pools, timeouts, proxies",
        ),
        Source(
            title="Unicode Standard Annex #15: Unicode Normalization Forms",
            url="https://unicode.org/reports/tr15/",
            note="NFKC, the compatibility normalisation quotes and pages go through",
        ),
    ],
)

revisions = [checking_sources]
