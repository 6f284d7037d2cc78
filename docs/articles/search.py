"""Documentation: the search index that every build writes with Pagefind, its shards joined into
one bundle, and the delta a rebuild adds."""

import re
from pathlib import Path

from _pages_kit import edit, files_by_hash, found_records, hidden_ids, indexed_pages, page, search_bundles
from _tool import SETTINGS, article, run, site

from site_builder import Source, fixture, heading, paragraph, revision, unordered_list, verified_output
from site_builder.search.heads import unpacked

NAV = """
[[tool.site_builder.nav]]
section = "Start here"
pages = [["alpha", "Alpha page"], ["beta", "Beta page"]]
"""


def _folder(build: Path, bundle: str) -> Path:
    return build / bundle.strip("/")


def _bundle_files(build: Path, bundle: str) -> dict[str, str]:
    """The files of one bundle, by content hash: not those of the bundles and scripts that
    ``/pagefind/`` holds beside its own."""
    files = files_by_hash(_folder(build, bundle))
    others = ("shard-", "delta/", "merged/", "site-search.js")
    return {path: sha for path, sha in files.items() if bundle != "/pagefind/" or not path.startswith(others)}


@fixture
def search_bundle() -> dict:
    """A site of two articles: what the build writes for search, and what its pages load."""
    root = site({"articles/alpha.py": article("alpha", "Alpha"), "articles/beta.py": article("beta", "Beta")})
    ran = run(root, "build")
    build = root / "build"
    linked = sorted(set(re.findall(r'(?:href|src)="/(pagefind/[^"]+)"', page(root, "index.html"))))
    html = [p for p in build.rglob("*.html") if "pagefind" not in p.relative_to(build).parts]
    indexed = indexed_pages(build / "pagefind")
    return {
        "htmlPages": len(html),
        "indexedPages": sorted(indexed),
        "folders": sorted(p.name for p in (build / "pagefind").iterdir() if p.is_dir()),
        "linkedFromEveryPage": {name: (build / name).is_file() for name in linked},
        "bundles": search_bundles(build),
        "checks": {
            "built": ran.code == 0,
            "oneRecordPerArticle": len(indexed) == 2,
            "everyLinkedFileWritten": all((build / name).is_file() for name in linked),
        },
    }


@fixture
def what_is_indexed() -> dict:
    """The record Pagefind keeps of an article page that has a sidebar, tags and a contents list."""
    files = {"articles/alpha.py": article("alpha", "Alpha"), "articles/beta.py": article("beta", "Beta")}
    root = site(files, SETTINGS + NAV)
    ran = run(root, "build")
    shown = page(root, "articles/alpha/index.html")
    record = indexed_pages(root / "build" / "pagefind")["/articles/alpha/"]
    chrome = [
        "Alpha page",
        "Published",
        "1 min read",
        "Contents",
        "No result in this article",
        "Skip to content",
        "Next",
    ]
    return {
        "title": record["meta"]["title"],
        "content": record["content"],
        "checks": {
            "built": ran.code == 0,
            "chromeOnThePage": all(words in shown for words in chrome),
            "chromeNotIndexed": not any(words in record["content"] for words in chrome),
            "bodyIndexed": "something to check" in record["content"],
        },
    }


def _box_loads(build: Path) -> str:
    """The folder whose ``pagefind.js`` the search box loads: the merging module's, or the first
    bundle's."""
    script = (build / "pagefind" / "site-search.js").read_text("utf-8")
    module = re.search(r'bundlePath: "([^"]+)"', script)
    return module.group(1) if module else search_bundles(build)[0]


@fixture
def shards() -> dict:
    """How many shards a site gets, the one bundle they are joined into, and what a rebuild after
    one edit indexes."""
    from site_builder.search.shards import shard_count

    counts = {str(n): shard_count(n) for n in (1, 10, 11, 25, 100, 320, 1000, 3334)}
    files = {f"articles/batch_{n:02d}.py": article(f"page-{n:02d}", f"Page {n}") for n in range(25)}
    root = site(files)
    first = run(root, "build")
    build = root / "build"
    bundles = search_bundles(build)
    before = {b: _bundle_files(build, b) for b in bundles}
    pages = {b: len(indexed_pages(_folder(build, b))) for b in bundles}
    loads = _box_loads(build)
    kept = sorted(p.name for p in (root / ".site-builder-cache" / "search").iterdir() if p.is_dir())
    edit(root / "articles/batch_07.py", "This article exists", "This edited article exists")
    second = run(root, "build")
    after = {b: _bundle_files(build, b) for b in bundles}
    now = search_bundles(build)
    found = [record for record in found_records(build) if record["url"] == "/articles/page-07/"]
    heads = unpacked((build / "pagefind" / "merged" / "heads.bin").read_bytes())
    held: dict[str, list[str]] = {}
    for url in sorted(heads):
        folder, _, name = url.rpartition("/")
        held.setdefault(f"{folder}/", []).append("its metadata" if name.endswith(".pf_meta") else name)
    return {
        "shardsForBatches": counts,
        "site": {
            "batches": len(files),
            "shards": shard_count(len(files)),
            "bundles": bundles,
            "pagesPerBundle": pages,
            "searchBoxLoads": loads,
        },
        "afterEditingOneArticle": {
            "bundles": now,
            "indexedAgain": [b for b in bundles if before[b] != after[b]],
            "deltaHolds": sorted(indexed_pages(_folder(build, now[-1]))) if len(now) > len(bundles) else [],
            "hiddenPages": {b: len(ids) for b, ids in hidden_ids(build).items() if ids},
            "searchBoxLoads": _box_loads(build),
            "moduleFiles": sorted(p.name for p in (build / "pagefind" / "merged").iterdir()),
            "oneFileHolds": held,
        },
        "checks": {
            "bothBuilt": first.code == 0 and second.code == 0,
            "theCacheKeepsEachShardAndTheirJoin": len(kept) == shard_count(len(files)) + 1,
            "theOneFileHoldsEachAsItIs": all(
                data == (build / url.lstrip("/")).read_bytes() for url, data in heads.items()
            ),
            "everyPageIndexedOnce": sum(pages.values()) == len(files),
            "theBaseHidesTheEditedPage": [b for b, ids in hidden_ids(build).items() if ids] == ["/pagefind/"],
            "theEditedPageFoundOnceAsEdited": len(found) == 1 and "edited article" in found[0]["content"],
        },
    }


def _correction(slug: str, title: str) -> str:
    """A batch holding a later revision, dated 2026-11-20, of the article ``article(slug, title)``
    published on 2026-11-02."""
    return (
        article(slug, title)
        .replace(
            'published="2026-12-01",',
            'published="2026-11-02",\n        revised="2026-11-20",\n        changes="A shorter sentence.",',
        )
        .replace("so the tool has something to check", "for the tool to check")
    )


@fixture
def corrected_article() -> dict:
    """Twelve one-article batches (two shards, joined), built; then a batch correcting page-03
    added, built."""
    files = {
        f"articles/batch_{n:02d}.py": article(f"page-{n:02d}", f"Page {n}").replace(
            "2026-12-01", "2026-11-02"
        )
        for n in range(12)
    }
    root = site(files)
    first = run(root, "build")
    build = root / "build"
    bundles = search_bundles(build)
    before = {b: _bundle_files(build, b) for b in bundles}
    (root / "articles/fix_2026_11.py").write_text(_correction("page-03", "Page 3"), "utf-8")
    second = run(root, "build")
    records = found_records(build)
    urls = [record["url"] for record in records]
    record = next(record for record in records if record["url"] == "/articles/page-03/")
    now = search_bundles(build)
    return {
        "pagesOfPage03": sorted(
            p.relative_to(build).as_posix() for p in (build / "articles/page-03").rglob("*.html")
        ),
        "foundUrlsOfPage03": [url for url in urls if url.startswith("/articles/page-03/")],
        "foundText": record["content"],
        "bundles": now,
        "deltaHolds": sorted(indexed_pages(_folder(build, now[-1]))),
        "checks": {
            "bothBuilt": first.code == second.code == 0,
            "theBaseNotIndexedAgain": bundles == ["/pagefind/"]
            and _bundle_files(build, "/pagefind/") == before["/pagefind/"],
            "theBaseHidesItsCopy": [b for b, ids in hidden_ids(build).items() if ids] == bundles,
            "everyArticleFoundOnce": len(urls) == len(set(urls)) == len(files),
        },
    }


search_page = revision(
    slug="search",
    title="Search",
    categories=["Reference"],
    excerpt="How every build makes a search index with Pagefind: what is indexed, the files it "
    "writes, the search box, why the index is made in shards and joined into one, and how a "
    "rebuild indexes only the pages it changed.",
    published="2026-12-01",
    body=[
        paragraph(
            "A site built by site_builder has full-text search without a server. During `build`, "
            "after the pages are rendered, site_builder runs Pagefind over them. Pagefind is a static "
            "search tool: it reads the built HTML and writes an index split into small files next to "
            "the site, plus a script that searches it in the browser and downloads only the parts of "
            "the index a query needs. There is nothing to configure, and nothing to install separately "
            "either: the `pagefind[bin]` package, a dependency of site_builder, brings the Pagefind "
            "program for your platform (a `pagefind` found on `PATH` is used when it does not)."
        ),
        paragraph(
            "Pagefind finds the pages on disk itself and numbers them in the order the file system "
            "lists them, and the order of the staging folder depends on how it was filled: a rebuild "
            "stages the unchanged pages before the changed ones. So each shard's indexer reads a tree "
            "of links to that shard's pages alone, made afresh in the order of their paths: on one "
            "file system, the same pages make the same index, byte for byte, and a rebuild that "
            "indexes its shards makes the index a clean build makes (a rebuild that adds a delta "
            "finds the same pages from other files: see below). Another file system may list the "
            "same tree in another order (ext4, for one, keeps a folder's entries in a tree keyed by "
            "a hash of their names), so two "
            "machines can number the same pages differently; both indexes find the same pages."
        ),
        paragraph(
            "The index is part of the build like any page: if Pagefind fails, the build reports it as a "
            "problem and writes nothing, and the previous site stays as it was. Since the index is made "
            "from the built pages, `validate` and `revisions`, which render no pages, do not run "
            "Pagefind."
        ),
        paragraph(
            "This page is about searching inside the site. What outside search engines and social "
            "sites read of an article — its JSON-LD, and the OpenGraph and Twitter tags of a shared "
            "link, with a PNG drawn from an SVG cover — is described in [Templates and "
            "theming](/articles/templates-and-theming/#shared-and-indexed-the-head-of-an-article-page); "
            "the sitemap lists every page for their crawlers."
        ),
        heading("What a build writes"),
        paragraph(
            "A fixture builds a site of two articles and looks at the result: how many HTML pages there "
            "are, which pages the index holds (by reading the records Pagefind wrote), the folders under "
            "`pagefind/`, the search files every page links to, and the bundles the search box loads:"
        ),
        verified_output(
            search_bundle,
            expected={
                "htmlPages": 6,
                "indexedPages": ["/articles/alpha/", "/articles/beta/"],
                "folders": ["fragment", "index"],
                "linkedFromEveryPage": {
                    "pagefind/pagefind-ui.css": True,
                    "pagefind/pagefind-ui.js": True,
                    "pagefind/site-search.js": True,
                },
                "bundles": ["/pagefind/"],
            },
        ),
        paragraph(
            "Of the six pages — the home page, the two articles, the list of categories, the one "
            "category and the 404 page — only the two articles are indexed: a search leads to "
            "articles, not to lists of them. Everything else under `pagefind/` is Pagefind's own: "
            "`fragment/` holds one compressed record per page (its text, title and headings), "
            "`index/` the word index in chunks, and beside them Pagefind's scripts, styles and "
            "WebAssembly modules. Their names carry content hashes and change with Pagefind's version, "
            "so nothing should depend on them; the one file site_builder writes itself is "
            "`pagefind/site-search.js`, which starts the search box (after an edit, also the module "
            "under `pagefind/merged/` that merges the delta into the index, see below)."
        ),
        heading("The search box"),
        paragraph(
            'The header of every page, in `base.html`, holds an empty `<div id="search">` inside a '
            '`role="search"` landmark, and the page loads Pagefind\'s default UI '
            "(`/pagefind/pagefind-ui.js` and its stylesheet) and then `/pagefind/site-search.js`. "
            "That script starts Pagefind's UI in the box with:"
        ),
        unordered_list(
            [
                "the bundle at `/pagefind/` as the index, and any other bundle merged into it (the delta "
                "of a rebuild, see below), so that a query finds what one index of every page would;",
                "one result per page (no sub-results) and no images;",
                "the placeholder and the input's accessible name taken from the box's `data-label`, the "
                "word for *Search* in the page's language.",
            ]
        ),
        paragraph(
            "Pagefind is told one language for the whole index — the site's `language` — so a query "
            "typed on any page finds articles in every language of the site; by default Pagefind would "
            "keep one index per page language and search only the current page's. The theme colours "
            "the box with its own colours, in light and dark mode. Without JavaScript the box stays "
            "empty and the rest of the page works as before."
        ),
        heading("What is indexed"),
        paragraph(
            "Pagefind indexes what it finds inside an element marked `data-pagefind-body`, and skips "
            "anything inside an element marked `data-pagefind-ignore`. On an article page, "
            "`article.html` puts `data-pagefind-body` on the `<article>`: the site header, the search "
            "box, the sidebar and the previous/next links of the ordered navigation and the footer "
            "are outside it. Inside it, the byline (the date and the reading time), the category "
            "tags, the marks of an included draft or scheduled revision, the table of contents and "
            "the box of fixtures are marked `data-pagefind-ignore`, so that a result's excerpt never "
            "starts with *Published: 2026-12-01 · 1 min read*. The `h1` carries "
            '`data-pagefind-meta="title"`, so results are titled with the article\'s title rather than '
            "the page's `<title>`. What remains is the title and the body with its sources."
        ),
        paragraph(
            "A fixture builds a site of two articles with a navigation, checks that the page of the "
            "first shows the sidebar (*Alpha page*), the byline (*Published*, *1 min read*), the "
            "contents (*Contents*), the note on verified results, the skip link and the *Next* link, "
            "and then reads the record Pagefind kept of that page — none of those words are in it:"
        ),
        verified_output(
            what_is_indexed,
            expected={
                "title": "Alpha",
                "content": "Alpha. This article exists so the tool has something to check. Sources. "
                "CommonMark — the syntax.",
            },
        ),
        paragraph(
            "If you override `article.html` (see [templates and theming](/articles/templates-and-theming/)), "
            "keep `data-pagefind-body` on the element that holds the article and `data-pagefind-ignore` "
            "on what repeats from page to page, or search results will match your navigation. Keep the "
            "page a whole HTML document, too: Pagefind skips files without an `<html>` element, and a "
            "build in which it finds no page to index fails."
        ),
        heading("Corrected articles"),
        paragraph(
            "An article corrected by later revisions ([Correcting an "
            "article](/articles/revisions-over-time/)) is indexed once, at its own URL, with the "
            "text of its latest revision. The pages of its earlier revisions and the pages showing "
            "what each revision changed are not indexed — a search never leads to text the site "
            "has since corrected — and neither are the history section and the notice of an "
            "earlier revision, which are marked `data-pagefind-ignore` like the byline. A fixture "
            "builds twelve one-article batches dated 2026-11-02, then adds a batch that corrects "
            "`page-03` on 2026-11-20 and builds again: the article's pages, which of them the "
            "search finds, with what text, and what the rebuild indexed (see the delta, below):"
        ),
        verified_output(
            corrected_article,
            expected={
                "pagesOfPage03": [
                    "articles/page-03/diff/2/index.html",
                    "articles/page-03/index.html",
                    "articles/page-03/revisions/1/index.html",
                ],
                "foundUrlsOfPage03": ["/articles/page-03/"],
                "foundText": "Page 3. This article exists for the tool to check. Sources. CommonMark — "
                "the syntax.",
                "bundles": ["/pagefind/", "/pagefind/delta/"],
                "deltaHolds": ["/articles/page-03/"],
            },
        ),
        paragraph(
            "The article's latest page is written once every batch is in, since it needs the whole "
            "history. On this rebuild it is a changed page like any other: it goes to the delta, "
            "and the search box hides the first text, which the index of the first build still "
            "holds; that index is not made again."
        ),
        heading("Shards, joined into one bundle"),
        paragraph(
            "Pagefind indexes a set of pages in one run, which starts once every page of the set is "
            "written and holds about 280 KB of memory per page while it runs: over the 10,000 "
            "articles of our benchmark, one run would hold close to 3 GB. So site_builder splits the "
            "articles into *shards* by batch module and indexes each shard in its own Pagefind run, "
            "one run starting as soon as its shard's pages are written, while the workers are still "
            "rendering other batches. A batch's shard is chosen by a hash of its module's name, so "
            "adding or removing another batch does not move it — as long as the number of shards "
            "stays the same. A small site gets shards of about ten batches, and at most 4 shards; "
            "past that, shards grow until each would hold more than 200 batches, and their number "
            "grows instead:"
        ),
        verified_output(
            shards,
            expected={
                "shardsForBatches": {
                    "1": 1,
                    "10": 1,
                    "11": 2,
                    "25": 3,
                    "100": 4,
                    "320": 4,
                    "1000": 5,
                    "3334": 17,
                },
                "site": {
                    "batches": 25,
                    "shards": 3,
                    "bundles": ["/pagefind/"],
                    "pagesPerBundle": {"/pagefind/": 25},
                    "searchBoxLoads": "/pagefind/",
                },
                "afterEditingOneArticle": {
                    "bundles": ["/pagefind/", "/pagefind/delta/"],
                    "indexedAgain": [],
                    "deltaHolds": ["/articles/page-07/"],
                    "hiddenPages": {"/pagefind/": 1},
                    "searchBoxLoads": "/pagefind/merged/",
                    "moduleFiles": ["heads.bin", "pagefind-core.js", "pagefind-worker.js", "pagefind.js"],
                    "oneFileHolds": {
                        "/pagefind/": ["pagefind-entry.json", "its metadata"],
                        "/pagefind/delta/": ["pagefind-entry.json", "its metadata"],
                    },
                },
            },
        ),
        paragraph(
            "The fixture builds a site of 25 one-article batches: three shards, indexed in three "
            "runs, and then *joined*: the build writes one Pagefind bundle at `/pagefind/` from the "
            "three, listing the shards' pages one shard after another and each word once, with the "
            "pages of every shard that holds it. The result is the index one Pagefind run over all "
            "the pages would write, but for the order in which it numbers the pages: the same "
            "words, on the same pages, at the same places, with the same filters. Our tests check "
            "that word by word against one run over the same pages, and compare the results of "
            "about a hundred queries in Chromium. So a reader's search loads one bundle, as on any "
            "site with Pagefind. Joining reads Pagefind's own files, which it does not document: "
            "site_builder reads those of Pagefind 1.4 and 1.5. Each shard's bundle stays in "
            "`.site-builder-cache/search/` (the fixture checks that there are four: the three "
            "shards and their join), under a hash of its pages, the site's language and the "
            "Pagefind version, so a bundle is reused exactly when indexing again would give the same "
            "pages to the same Pagefind."
        ),
        paragraph(
            "A larger site's shards are joined into several bundles instead, runs of neighbouring "
            "shards of about 2,500 pages each, and at most 4. After an edit the search box merges "
            "the bundles and the delta (below), and in Chromium its first search over four "
            "bundles of 2,500 pages and a delta took about half the time of its first search over "
            "one bundle of 10,000 and a delta (bench/README.md), for one more index file asked for "
            "per bundle."
        ),
        paragraph(
            "Then the fixture edits one article and builds again: the bundle is not made again (its "
            "files are byte for byte what they were); the edited page is indexed alone into a second "
            "bundle, the delta, and the search box hides the old copy the first bundle holds (next "
            "section)."
        ),
        paragraph(
            "With more than one bundle the search box merges them with Pagefind's `mergeIndex` "
            "option, so a reader sees one list of results, but not with Pagefind's search alone. "
            "Pagefind searches each merged bundle on its own, and a bundle that holds no word "
            "beginning with the query's stem answers with the pages of the longest word the stem "
            "begins with: searching *placeholder*, held by one page, a bundle without it answered "
            "with its pages of *place*. One index of every page never does that, since another page "
            "holds *placeholder*. So the box then loads a module of site_builder's in place of "
            "`pagefind.js`, from `/pagefind/merged/`: for each word of a query it asks every bundle "
            "how it matches the word, compares the stems Pagefind reports in its playground mode, "
            "and lists the results of only the bundles that match every word as one index would. "
            "`pagefind-core.js` beside it is the first bundle's `pagefind.js` with one line added, "
            "which exports that mode (Pagefind 1.4 and 1.5 have it), and one more change: before it "
            "can search, each bundle's Pagefind asks for two small files, its entry "
            "(`pagefind-entry.json`) and its metadata, and the copy takes both from `heads.bin`, "
            "which holds every bundle's and is asked for once; so does the copy of Pagefind 1.5's "
            "worker, `pagefind-worker.js`, which the copy starts in place of the first bundle's "
            "(fixture `shards` above: `oneFileHolds`; bench/README.md measures the requests). A "
            "query costs more searches — two per word and bundle, and one per word to learn its "
            "stem — and, from a bundle that holds the word's stem only at the start of longer "
            "words, or answers with a shorter word, its first result's record."
        ),
        paragraph(
            "Shards that cannot be joined are published as they are, each a bundle of its own, and "
            "merged the same way: the first at `/pagefind/`, where Pagefind's UI expects it, the "
            "others at `/pagefind/shard-01/`, `/pagefind/shard-02/` and so on. That happens when "
            "the pages carry sort orders (`data-pagefind-sort`: a bundle keeps the order of its "
            "pages, not the values it sorted by, so two orders cannot be merged into one) or when "
            "another Pagefind than 1.4 or 1.5 made the shards. Our browser tests build a site of "
            "three shards both ways, joined and not, and compare the results of about a hundred "
            "queries with those of one bundle of the same pages: they must be the same pages."
        ),
        heading("Edits: a delta over the last fold"),
        paragraph(
            "Indexing a shard again after each edit, and joining the shards again, would cost seconds on a "
            "large site. So the bundle of the last build that indexed its shards is kept as it is, as the "
            "*base*, and a rebuild indexes only the pages the base lacks or holds an older copy of — those "
            "its edits changed and those it added — in one more Pagefind run, into one more bundle, the "
            "*delta*, published at `/pagefind/delta/`. The base's copies of the pages the delta holds anew, "
            "and of the pages that are gone, must not be found: the build reads which record of the base is "
            "which page (once, when the base is made, kept beside it in the cache), and the search box's "
            "module drops those records from the base's results by their ids, which a result carries before "
            "its record is loaded."
        ),
        paragraph(
            "A word only a hidden page held is still in the base's word index, and Pagefind would "
            "match it there: searching *placeholder* after the one page holding it was edited to drop "
            "it, the base answers with that page alone, which is hidden, where one index of the site "
            "as it now is falls back to the longest word the query begins with, *place*. The module "
            "sees that every page the base matched is hidden, looks in the base for the longest "
            "beginning of the word that the pages shown hold (a quoted search each, the longest "
            "first), and asks that bundle for it instead. Our browser tests edit, add and remove "
            "articles of a site of three shards (joined), with words such as this one, and compare "
            "the results of about a hundred queries with those of one bundle of the site as it then "
            "is: the same pages, query by query."
        ),
        paragraph(
            "The delta grows with every edit since the base was made: each rebuild indexes all of it "
            "again. Once it would hold more than 100 pages, the build folds it instead: it indexes "
            "the shards whose pages changed, as a clean build would, and joins them with the others "
            "(from the cache) into the next base, with no delta. A build without a base to add to — "
            "the first, one with `--no-cache`, one whose base another Pagefind version or another "
            "site language made — indexes its shards the same way."
        ),
    ],
    sources=[
        Source(
            title="Pagefind: Configuring what content is indexed",
            url="https://pagefind.app/docs/indexing/",
            note="data-pagefind-body, data-pagefind-ignore and data-pagefind-meta",
        ),
        Source(
            title="Pagefind: Searching multiple sites",
            url="https://pagefind.app/docs/multisite/",
            note="mergeIndex, which joins the shards' bundles in the browser",
        ),
        Source(
            title="Pagefind source: pagefind_web/src/search.rs",
            url="https://github.com/Pagefind/pagefind/blob/main/pagefind_web/src/search.rs",
            note="find_word_extensions: the words beginning with a stem, or else the longest word "
            "the stem begins with",
        ),
        Source(
            title="Pagefind source: pagefind_web/src/lib.rs",
            url="https://github.com/Pagefind/pagefind/blob/main/pagefind_web/src/lib.rs",
            note="in playground mode a search's answer names its stemmed keywords (search_keywords)",
        ),
        Source(
            title="Pagefind CLI configuration options",
            url="https://pagefind.app/docs/config-options/",
            note="site, output_path and force_language, which site_builder sets for each shard",
        ),
        Source(
            title="The Linux kernel: ext4 directory entries",
            url="https://docs.kernel.org/filesystems/ext4/directory.html",
            note="hash tree directories: entries kept in a tree keyed by a hash of their names",
        ),
        Source(
            title="Pagefind source: pagefind/src/index/mod.rs",
            url="https://github.com/Pagefind/pagefind/blob/main/pagefind/src/index/mod.rs",
            note="each page's number is its place in the list of pages, in the order they were added",
        ),
    ],
)

revisions = [search_page]
