"""Documentation: incremental builds, the .site-builder-cache/ folder, and the atomic swap."""

import datetime
import os

from _pages_kit import edit, files_by_hash, inodes, kept_texts, page, site_by_hash, without_seconds
from _tool import article, run, session, site

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
    verified_output,
)

SLUGS = ("alpha", "beta", "gamma")
CACHE = ".site-builder-cache"


def _three() -> dict[str, str]:
    return {f"articles/{slug}.py": article(slug, slug.title()) for slug in SLUGS}


def _kept_batches(root) -> set[str]:
    """The keys of the batches the cache keeps (each also has a .text file beside it)."""
    folder = root / CACHE / "batches"
    return {p.name for p in folder.iterdir() if not p.name.endswith(".text") and not p.name.startswith(".")}


def _kept_after(kept: dict[str, tuple[int, int]], now: dict[str, tuple[int, int]]) -> dict[str, int]:
    """Of the batches ``kept`` (:func:`kept_texts`), how many the cache ``now`` holds as they were,
    and how many it holds that it did not (summarized since)."""
    return {
        "keptAsTheyWere": sum(now.get(name) == stat for name, stat in kept.items()),
        "summarizedSince": len(now.keys() - kept.keys()),
    }


@fixture
def build_twice() -> dict:
    """Build, build again without a change, then again after deleting a file of the output."""
    root = site(_three())
    first = session(root, ["build"])
    before = inodes(root / "build")
    second = session(root, ["build"])
    untouched = inodes(root / "build") == before
    (root / "build" / "robots.txt").unlink()
    third = session(root, ["build"])
    return {
        "transcript": first.lines + second.lines,
        "afterDeletingRobotsTxt": third.lines,
        "checks": {
            "allExitZero": first.codes + second.codes + third.codes == [0, 0, 0],
            "secondWroteNothing": untouched,
            "robotsTxtIsBack": (root / "build" / "robots.txt").is_file(),
        },
    }


@fixture
def cache_contents() -> dict:
    """The cache of a three-article site after two builds, one article edited between them."""
    root = site(_three())
    first = run(root, "build")
    edit(root / "articles/beta.py", "This article exists", "This edited article exists")
    second = run(root, "build")
    return {
        "folders": sorted(p.name for p in (root / CACHE).iterdir() if p.is_dir()),
        "keptBatches": len(_kept_batches(root)),
        "checks": {
            "bothBuilt": first.code == second.code == 0,
            "oneEntryPerBatch": len(_kept_batches(root)) == len(SLUGS),
        },
    }


@fixture
def what_invalidates() -> dict:
    """After each change, how many batches the next build had to load and render again."""
    root = site(_three())
    run(root, "build")
    seen = _kept_batches(root)
    pages = inodes(root / "build" / "articles")
    changes = {
        "edit articles/beta.py": lambda: edit(
            root / "articles/beta.py", "This article", "This edited article"
        ),
        "add articles/_shared.py": lambda: (root / "articles/_shared.py").write_text(
            "NAME = 'shared'\n", "utf-8"
        ),
        "add templates/404.html": lambda: (
            (root / "templates").mkdir()
            or (root / "templates/404.html").write_text('{% extends "base.html" %}\n', "utf-8")
        ),
        "change description": lambda: edit(
            root / "pyproject.toml", 'title = "Demo"', 'title = "Demo"\ndescription = "New."'
        ),
        "add assets/logo.svg": lambda: (
            (root / "assets").mkdir()
            or (root / "assets/logo.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>\n', "utf-8")
        ),
    }
    loaded, codes, linked = {}, [], {}
    for name, change in changes.items():
        change()
        ran = run(root, "build")
        codes.append(ran.code)
        now = _kept_batches(root)
        loaded[name] = len(now - seen)
        seen = now
        if not linked:
            after = inodes(root / "build" / "articles")
            linked = {path.split("/")[0]: after[path] == pages[path] for path in sorted(pages)}
    return {
        "batchesLoadedAgain": loaded,
        "sameFileAfterEditingBeta": linked,
        "checks": {
            "everyBuildPassed": codes == [0] * len(changes),
            "editOnlyBeta": loaded["edit articles/beta.py"] == 1,
            "unchangedPagesLinked": linked == {"alpha": True, "beta": False, "gamma": True},
        },
    }


DAYS = {"2026-12-01": "1796083200", "2026-12-10": "1796860800", "2026-12-24": "1798070400"}
"""Three build dates, each as SOURCE_DATE_EPOCH (its 00:00 UTC)."""


@fixture
def schedule_and_cache() -> dict:
    """A site whose gamma is scheduled for 2026-12-24, built on three days, then clean."""
    files = _three()
    files["articles/gamma.py"] = files["articles/gamma.py"].replace("2026-12-01", "2026-12-24")
    root = site(files)
    said, codes, kept = {}, [], {}
    for day, epoch in DAYS.items():
        before = inodes(root / "build") if (root / "build").is_dir() else {}
        ran = run(root, "build", env={"SOURCE_DATE_EPOCH": epoch})
        codes.append(ran.code)
        said[day] = [without_seconds(line) for line in ran.lines]
        now = inodes(root / "build")
        kept = {
            slug: now[f"articles/{slug}/index.html"] == before.get(f"articles/{slug}/index.html")
            for slug in SLUGS[:2]
        }
    clean = run(
        root,
        "build",
        "--no-cache",
        "--out",
        str(root / "clean"),
        env={"SOURCE_DATE_EPOCH": DAYS["2026-12-24"]},
    )
    return {
        "builtOn": said,
        "pagesKeptOn2026-12-24": kept,
        "checks": {
            "allExitZero": codes == [0, 0, 0] and clean.code == 0,
            "sameAsACleanBuild": site_by_hash(root / "build") == site_by_hash(root / "clean"),
            "epochsAreThoseDays": all(
                datetime.datetime.fromtimestamp(int(epoch), datetime.UTC).date().isoformat() == day
                for day, epoch in DAYS.items()
            ),
        },
    }


@fixture
def same_as_clean() -> dict:
    """An incremental build after edits, compared with a clean build of the same site: every file
    byte for byte, and the pages the search finds (a record of each, by URL)."""
    root = site(_three())
    run(root, "build")
    edit(root / "articles/gamma.py", "This article exists", "This changed article exists")
    (root / "articles/delta.py").write_text(article("delta", "Delta"), "utf-8")
    (root / "articles/alpha.py").unlink()
    incremental = run(root, "build")
    clean = run(root, "build", "--no-cache", "--out", str(root / "clean"))
    mine, theirs = site_by_hash(root / "build"), site_by_hash(root / "clean")
    return {
        "differing": sorted(p for p in mine.keys() & theirs.keys() if mine[p] != theirs[p]),
        "onlyInOne": sorted(mine.keys() ^ theirs.keys()),
        "checks": {
            "bothBuilt": incremental.code == clean.code == 0,
            "sameFiles": mine == theirs,
            "deltaThere": "articles/delta/index.html" in mine,
            "alphaGone": "articles/alpha/index.html" not in mine,
        },
    }


CORRECTION = """\
from site_builder import Source, paragraph, revision

revisions = [
    revision(
        slug="beta",
        title="Beta",
        categories=["Demo"],
        excerpt="A short demonstration article.",
        published="2026-11-02",
        revised="2026-11-20",
        changes="A shorter sentence.",
        body=[paragraph("This article exists for the tool to check.")],
        sources=[Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")],
    )
]
"""
"""``articles/beta_2026_11.py``: a later revision of ``beta``, whose file name sorts after ``beta.py``."""


@fixture
def revised_later() -> dict:
    """The three-article site dated 2026-11-02, built; then a batch correcting beta added, built
    again, and compared with a clean build."""
    files = {name: text.replace("2026-12-01", "2026-11-02") for name, text in _three().items()}
    root = site(files)
    first = run(root, "build")
    before = inodes(root / "build" / "articles")
    (root / "articles/beta_2026_11.py").write_text(CORRECTION, "utf-8")
    second = run(root, "build")
    after = inodes(root / "build" / "articles")
    clean = run(root, "build", "--no-cache", "--out", str(root / "clean"))
    mine, theirs = site_by_hash(root / "build"), site_by_hash(root / "clean")
    kept = kept_texts(root)
    edit(root / "articles/gamma.py", "This article", "This edited article")
    third = run(root, "build")
    return {
        "build": [without_seconds(line) for line in second.lines],
        "afterEditingGamma": _kept_after(kept, kept_texts(root)),
        "sameFile": {path: after[path] == before[path] for path in sorted(before)},
        "newFiles": sorted(after.keys() - before.keys()),
        "differingFromACleanBuild": sorted(
            p for p in mine.keys() | theirs.keys() if mine.get(p) != theirs.get(p)
        ),
        "checks": {
            "allBuilt": first.code == second.code == clean.code == third.code == 0,
            "sameAsClean": mine == theirs,
        },
    }


@fixture
def failed_build() -> dict:
    """Build, break an article, build again: the failed build leaves the site as it was."""
    root = site(_three())
    good = run(root, "build")
    before = files_by_hash(root / "build")
    cache_before = files_by_hash(root / CACHE)
    edit(root / "articles/gamma.py", 'published="2026-12-01"', 'published="2026-13-01"')
    bad = session(root, ["build"])
    return {
        "transcript": bad.lines,
        "siteRoot": sorted(os.listdir(root)),
        "checks": {
            "firstBuilt": good.code == 0,
            "secondFailed": bad.codes == [1],
            "everyFileAsBefore": files_by_hash(root / "build") == before,
            "cacheAsBefore": files_by_hash(root / CACHE) == cache_before,
            "oldGammaPageThere": '<h1 data-pagefind-meta="title">Gamma</h1>'
            in page(root, "articles/gamma/index.html"),
        },
    }


@fixture
def without_cache() -> dict:
    """Two builds with --no-cache on a new site."""
    root = site(_three())
    ran = session(root, ["build", "--no-cache"], ["build", "--no-cache"])
    return {
        "transcript": ran.lines,
        "checks": {
            "bothBuilt": ran.codes == [0, 0],
            "bothBuiltEverything": sum(line.startswith("built ") for line in ran.lines) == 2,
            "noCacheWritten": not (root / CACHE).exists(),
        },
    }


incremental_page = revision(
    slug="incremental-builds",
    title="Incremental builds and the cache",
    categories=["Guide"],
    excerpt="What site_builder remembers between builds in .site-builder-cache/, what makes it "
    "forget, why the output is always that of a clean build, and how a failed build leaves the "
    "site untouched.",
    published="2026-12-01",
    body=[
        paragraph(
            "A build validates every article, runs every fixture, renders every page, checks every "
            "link and indexes the site for search. On a site of a few hundred articles that is real "
            "work, and most of it gives the same result as last time. So `site-builder build` "
            "remembers what it learned in a folder under the site root, `.site-builder-cache/`, and "
            "the next build redoes only what an edit can have changed. The result is never different: "
            "a cached build writes the pages and files a clean build writes, byte for byte, and its "
            "search finds the same pages (its index is cut otherwise: see below)."
        ),
        heading("Nothing changed"),
        paragraph(
            "The cheapest build is the one with nothing to do. Before it loads any article, `build` "
            "hashes every input and compares the hashes, and the state of the output folder, with the "
            "record of the last build. If nothing changed and the output folder is as that build left "
            "it, the command says so and writes nothing. A fixture builds a three-article site and "
            "builds it again (the seconds each build took are shown as `…`, since they vary):"
        ),
        transcript(
            build_twice,
            """
            $ site-builder build
            built 3 revisions, 7 pages in … s
            $ site-builder build
            nothing changed since the last build: 3 revisions, 7 pages in … s
            """,
        ),
        paragraph("Then it deletes `build/robots.txt` and builds a third time:"),
        transcript(
            build_twice,
            """
            $ site-builder build
            built 3 revisions, 7 pages in … s
            """,
            key="afterDeletingRobotsTxt",
        ),
        paragraph(
            "The fixture also checks that the second build left every file of `build/` as it was — the "
            "same files, not rewritten copies — and that the third put `robots.txt` back: a build "
            "compares the output folder with its record, so an output that was tampered with is never "
            "taken for up to date."
        ),
        heading("What is kept"),
        paragraph(
            "The cache belongs to one site and lives in its root, next to `pyproject.toml`. Add it to "
            "`.gitignore`; deleting it is always safe, since the next build simply does everything "
            "again. After two builds of a three-article site, with one article edited in between, it "
            "holds these folders, and one entry per batch:"
        ),
        verified_output(
            cache_contents,
            expected={
                "folders": [
                    "batches",
                    "index",
                    "inputs",
                    "joined",
                    "lists",
                    "outputs",
                    "rules",
                    "search",
                    "spare",
                ],
                "keptBatches": 3,
            },
        ),
        data_table(
            "The folders of .site-builder-cache/",
            ["folder", "what it keeps", "what it saves the next build"],
            [
                [
                    "`batches/`",
                    "For each batch without problems: its summary (list entries, the hashes of its "
                    "pages) and its texts (its part of `revisions.json` and of the feed, its fixture "
                    "outcomes, what the site-wide rules check of it).",
                    "Importing the batch, running its fixtures, rendering its pages.",
                ],
                [
                    "`index/`",
                    "The small part of every kept batch's summary that each build reads (list entries, "
                    "page hashes, when each revision is published) in one file, and the changes since "
                    "it was written in another. The rest (what the site-wide rules check, fixture "
                    "outcomes) stays in the batch's texts file until a rule needs it.",
                    "Opening a file per batch: after an edit of one article, the summaries of the "
                    "other batches come from this one file.",
                ],
                [
                    "`inputs/`",
                    "Each batch module's size, times and inode when it was last hashed.",
                    "Reading and hashing modules that did not change.",
                ],
                [
                    "`joined/`",
                    "Where each batch's part lies in the `revisions.json` the last build wrote.",
                    "Copying every batch's part again: the parts an edit left alone are copied from "
                    "the live `revisions.json`, a run of them at a time.",
                ],
                [
                    "`lists/`",
                    "The home page, the category pages and the sitemap.",
                    "Rendering them when no list entry changed.",
                ],
                [
                    "`rules/`",
                    "What the rules that read the whole site found (duplicate slugs, broken links, "
                    "doubtful category spellings), under a hash of everything they read.",
                    "Running those rules again after an edit that changed nothing they read: no "
                    "slug, link, category or fixture, and no line any of them is on.",
                ],
                [
                    "`search/`",
                    "Each shard's Pagefind bundle, and the bundles they are joined into.",
                    "Indexing shards whose pages did not change, and joining them again (see "
                    "[search](/articles/search/)).",
                ],
                [
                    "`outputs/`",
                    "The record of the site the last build wrote, and what its link check learned.",
                    "Writing files that already hold the right bytes; checking links of pages that "
                    "did not change.",
                ],
                [
                    "`spare/`",
                    "The site that was live before the last build, for this output folder and for "
                    "the one other folder built last (such as `serve`'s).",
                    "Writing a whole new folder: the spare is brought up to date instead.",
                ],
            ],
        ),
        paragraph(
            "Only batches without problems are kept, and only a build that succeeded writes the cache, "
            "after its new site is in place. `validate` and `revisions` read the cache (so they are fast "
            "too) but never write it — but for `--shard I/N`, which keeps one shard's batches there "
            "for a final run ([Checking in CI]"
            "(/articles/continuous-integration/#a-site-too-big-for-one-runner-shards))."
        ),
        paragraph(
            "One thing is kept outside the site: the compiled page templates, so that a command "
            "does not compile them again each time it runs. Jinja's bytecode of each template "
            "lives in `site-builder/templates/` under the user's cache folder (`$XDG_CACHE_HOME`, "
            "by default `~/.cache`), shared by every site. Jinja compares each kept file with the "
            "template's source and with the running Python, and compiles afresh when either "
            "differs, so the folder can make a build faster but never different; deleting it is "
            "always safe. When it cannot be made (a read-only home), nothing is kept."
        ),
        heading("What makes it forget"),
        paragraph(
            "Nothing in the cache expires with time. Each entry is found by a hash of everything its "
            "value depends on, so a changed input simply leads to a different key, and an entry that "
            "cannot be read counts as missing. A batch's key hashes:"
        ),
        unordered_list(
            [
                "the batch module itself;",
                "every other file under the articles folder — a helper module such as `_shared.py` that "
                "batches may import, or a data file one of them reads;",
                "the site's `templates/` folder;",
                "the settings, as read from `[tool.site_builder]`;",
                "site_builder's own files and version, so upgrading the tool starts afresh.",
            ]
        ),
        paragraph(
            "Assets are not part of a batch's key — an article's text cannot change with them — but "
            "their names, sizes and modification times are part of the build's key, so adding or "
            "touching one makes the next build run — it copies the assets and finishes the site — "
            "without loading or rendering any article again. A fixture makes one change after another "
            "to a three-article site and counts how many batches each following build had to load "
            "and render again; after the first change, it also checks which article pages are still "
            "the very same files:"
        ),
        verified_output(
            what_invalidates,
            expected={
                "batchesLoadedAgain": {
                    "edit articles/beta.py": 1,
                    "add articles/_shared.py": 3,
                    "add templates/404.html": 3,
                    "change description": 3,
                    "add assets/logo.svg": 0,
                },
                "sameFileAfterEditingBeta": {"alpha": True, "beta": False, "gamma": True},
            },
        ),
        paragraph(
            "An unchanged page is not written again: the new site gets a hard link to the file of the "
            "live site, with the same bytes and the same modification time, so a deployment tool that "
            "compares times uploads only what changed. Fixtures of a batch whose key did not change are "
            "not run again either — a fixture is deterministic by contract. To run them all anyway, "
            "use `site-builder verify`, which never reads the cache, or `--no-cache`."
        ),
        paragraph(
            "One input is not a file: the build's date, which decides whether a scheduled revision is "
            "published (see [Writing an article](/articles/writing-articles/)). A build on a later "
            "day has nothing new to do until the day of the next scheduled revision comes, or the "
            "`--drafts` / `--future` flags change. On that day only the batches whose revisions now "
            "show differently are loaded again, with the lists, the feed, the sitemap, "
            "`revisions.json` and a search delta of their pages; a build just after midnight is not a "
            "full rebuild. A three-article site whose `gamma` is scheduled for 2026-12-24, built "
            "with `SOURCE_DATE_EPOCH` set to three days in turn; on the 24th the pages of `alpha` "
            "and `beta` stay the very same files:"
        ),
        verified_output(
            schedule_and_cache,
            expected={
                "builtOn": {
                    "2026-12-01": [
                        "built 2 revisions, 6 pages",
                        "left out 1 scheduled revision (due 2026-12-24); --future includes it",
                    ],
                    "2026-12-10": [
                        "nothing changed since the last build: 2 revisions, 6 pages",
                        "left out 1 scheduled revision (due 2026-12-24); --future includes it",
                    ],
                    "2026-12-24": ["built 3 revisions, 7 pages"],
                },
                "pagesKeptOn2026-12-24": {"alpha": True, "beta": True},
            },
        ),
        heading("An article revised by a later batch"),
        paragraph(
            "A batch that corrects an article published by another ([Correcting an "
            "article](/articles/revisions-over-time/)) changes that article's pages, not only its "
            "own: the article's page now shows the new revision with its history, the old text "
            "moves to a page of its own, and a page shows what changed. Those pages depend on "
            "several batches at once, so they are not kept in the cache: once every batch is "
            "loaded, the build renders the pages of each article that has more than one revision, "
            "on every build that has anything to do — cheap next to loading a batch. The other "
            "articles' pages are kept as always. A fixture builds the three-article site, its "
            "articles dated 2026-11-02, then adds `articles/beta_2026_11.py`, which corrects "
            "`beta`, builds again, and compares the result with a clean build:"
        ),
        code_block(CORRECTION, language="python"),
        verified_output(
            revised_later,
            expected={
                "build": ["built 4 revisions, 9 pages"],
                "sameFile": {
                    "alpha/index.html": True,
                    "beta/index.html": False,
                    "gamma/index.html": True,
                },
                "newFiles": ["beta/diff/2/index.html", "beta/revisions/1/index.html"],
                "differingFromACleanBuild": [],
                "afterEditingGamma": {"keptAsTheyWere": 3, "summarizedSince": 1},
            },
        ),
        paragraph(
            "The batch that published the corrected article wrote that article's page when it "
            "was loaded, and the build replaced it with the latest revision's page. That batch is "
            "not loaded again for it: the cache remembers which articles a build found corrected, "
            "and a kept batch whose pages are no longer those of the site has them rendered by the "
            "build from what the cache kept of it. So once `beta` is corrected, an edit of `gamma` "
            "summarizes `gamma` again and keeps the three other batches as they were "
            "(`afterEditingGamma` above). Should the correction be withdrawn, the build renders the "
            "article's page from the kept batch as a batch would have. Either way the output is "
            "that of a clean build."
        ),
        heading("Always the output of a clean build"),
        paragraph(
            "Every kept value is exactly what recomputing it would give, so the output of an incremental "
            "build is byte for byte the output of a build from nothing, with one exception: the search "
            "index. A rebuild indexes only the pages it changed, into a small extra bundle beside the "
            "ones the last full indexing made, and the search box hides those bundles' old copies of "
            "the changed pages ([Search](/articles/search/#edits-a-delta-over-the-last-fold)); a "
            "clean build indexes every page afresh. The two indexes are different files, and find "
            "the same pages. The project's test suite checks this, and so does this fixture: it builds "
            "a site, edits one article, adds one, deletes another, builds again, and compares every "
            "file, and the record of every page the search finds, with a build of the same site into "
            "another folder with `--no-cache`:"
        ),
        verified_output(same_as_clean, expected={"differing": [], "onlyInOne": []}),
        paragraph(
            "Deleted articles leave no stale page behind: the new site holds exactly the files the "
            "current inputs produce. If you ever suspect the cache, `--no-cache` makes `build`, "
            "`validate` and `revisions` neither read nor write it; nothing else changes. Built "
            "twice with it, a new site is built whole both times, and is left without a "
            "`.site-builder-cache/` folder:"
        ),
        transcript(
            without_cache,
            """
            $ site-builder build --no-cache
            built 3 revisions, 7 pages in … s
            $ site-builder build --no-cache
            built 3 revisions, 7 pages in … s
            """,
        ),
        heading("A failed build changes nothing"),
        paragraph(
            "A build never writes into the live site. It writes the new site into a staging folder "
            "beside the output folder (`.build.new` next to `build`), and only when every step has "
            "passed — validation, fixtures, rendering, the link check, the search index — does it swap "
            "the staging folder in, with two renames. A build that fails stops before the swap: the "
            "staging folder is removed, and the live site and the cache are exactly as they were. A "
            "build killed halfway leaves either the old site or the new one whole; the next build first "
            "puts back whatever a killed build left."
        ),
        paragraph(
            "A fixture builds a site, gives one article a thirteenth month, and builds again. The second "
            "build exits with 1, names the problem, and says so:"
        ),
        transcript(
            failed_build,
            """
            $ site-builder build
            articles/gamma.py:9: gamma: published '2026-13-01' is not an ISO date like 2020-06-18
            1 problem found
            nothing was written; the previous site is untouched
            """,
        ),
        paragraph(
            "Every file of `build/` and of the cache is unchanged — the old page of the broken "
            "article is still served — and nothing is left beside the output folder; the site's "
            "folder holds:"
        ),
        verified_output(
            failed_build,
            expected={"siteRoot": [".site-builder-cache", "articles", "build", "pyproject.toml"]},
        ),
        paragraph(
            "This is what makes it reasonable to build straight into the folder a web server serves: "
            "readers get the old site until the new one is complete, and then the new one — never a "
            "mixture of the two. (Between the two renames there is an instant with no folder at all, "
            "so a server may answer one request with a 404 then.)"
        ),
    ],
    sources=[
        Source(
            title="rename(2) — Linux manual page",
            url="https://man7.org/linux/man-pages/man2/rename.2.html",
            note="a rename within one file system is atomic",
        ),
        Source(
            title="Jinja API: Bytecode Cache",
            url="https://jinja.palletsprojects.com/en/stable/api/#bytecode-cache",
            note="compiled templates kept between processes, checked against the template's source",
        ),
        Source(
            title="link(2) — Linux manual page",
            url="https://man7.org/linux/man-pages/man2/link.2.html",
            note="a hard link is a second name for the same file",
        ),
    ],
)

revisions = [incremental_page]
