"""The search box over several bundles, answering as one index of all their pages would.

Pagefind searches each merged bundle on its own (``mergeIndex``), and a bundle matches a word
by the words beginning with its stem or, when it holds none, by the longest word the stem
begins with: a word one bundle holds made another bundle answer with pages of a shorter
word (``placeholder`` found the pages of ``place``), which one index never does. On the
docs split in two, a third of single words found another set of pages than one bundle
(bench/README.md, "On real text, with stems").

So with more than one bundle the search box loads :data:`MODULE`, which stands in for
``pagefind.js``: for each word of the query it asks every bundle (one merged Pagefind, each
bundle's pages tagged by a ``mergeFilter``) how it matches the word, compares the stems
Pagefind's playground mode reports (``search_keywords``), and asks only the bundles that
match every word as one index would. ``pagefind.js`` does not export
``enterPlaygroundMode``: the module imports a copy of it with that export added
(:func:`merged_files`).

The copy also takes every bundle's entry and metadata from one file (:mod:`.heads`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from site_builder.model.layout import under
from site_builder.search.heads import CORE, FOLDER, bundle_heads, from_heads
from site_builder.search.pagefind import BUNDLE, SCRIPT

MODULE = f"{FOLDER}/pagefind.js"
"""The module the search box loads in place of ``pagefind.js`` over several bundles."""

_PLAYGROUND = (
    "\n// site_builder: Pagefind's playground mode, which names the stems it searched for.\n"
    "export const enterPlaygroundMode = async () => "
    "{ init_pagefind(); await pagefind.enterPlaygroundMode(); };\n"
)
_NEEDS = (
    re.compile(r"\bvar pagefind\s*="),
    re.compile(r"\bvar init_pagefind\s*="),
    re.compile(r"\benterPlaygroundMode\s*\("),
)
"""What the copy's added export calls, as Pagefind 1.4 and 1.5 write ``pagefind.js``."""


class UnmergeableError(Exception):
    """This Pagefind's ``pagefind.js`` is not one :data:`_PLAYGROUND` can be added to."""


def merged_files(
    pagefind_js: str,
    base_path: str,
    hidden: Sequence[Sequence[str]] = (),
    *,
    worker_js: str | None = None,
    heads: Mapping[str, bytes] | None = None,
) -> dict[str, str | bytes]:
    """The module and its copy of ``pagefind_js`` (the first bundle's), by output path; the
    module reads the bundle below ``base_path``, and hides from each bundle's results the pages
    of the ids ``hidden`` gives it (a base's pages a delta holds anew, or that are gone:
    :mod:`.delta`). With ``heads`` (each bundle's entry and metadata by URL path), the copy
    takes those files from :data:`.heads.HEADS`, and so does a copy of ``worker_js`` (the first
    bundle's ``pagefind-worker.js``), started in place of the original. Raises
    :class:`UnmergeableError` when the copy's export would not work with this ``pagefind.js``."""
    missing = [need.pattern for need in _NEEDS if not need.search(pagefind_js)]
    if missing:
        raise UnmergeableError(f"pagefind.js has no {', '.join(missing)}")
    values = {
        "BASE_PATH": json.dumps(under(base_path, f"/{BUNDLE}/")),
        "HIDDEN_IDS": json.dumps([list(ids) for ids in hidden]),
    }
    module = re.sub("BASE_PATH|HIDDEN_IDS", lambda match: values[match.group()], _SHIPPED_MODULE)
    files: dict[str, str | bytes] = {MODULE: module}
    if heads is None:
        return files | {CORE: pagefind_js + _PLAYGROUND}
    return files | from_heads(pagefind_js + _PLAYGROUND, worker_js, heads, base_path)


def search_scripts(
    files: Mapping[str, Path], bundles: list[str], hidden: list[list[str]], base_path: str
) -> dict[str, str | bytes]:
    """``site-search.js`` over ``bundles`` (their folders in the site), and with more than one or
    pages to hide (``hidden``: each bundle's) the module that merges them, made from the first
    bundle's ``pagefind.js`` and worker, and the file of every bundle's entry and metadata;
    by output path. ``files``: each bundle's files, output path → where it is now."""
    merged = len(bundles) > 1 or any(hidden)
    scripts: dict[str, str | bytes] = {
        SCRIPT: merging_script([f"/{folder}/" for folder in bundles], base_path, merged=merged)
    }
    if merged:
        worker = files.get(f"{BUNDLE}/pagefind-worker.js")
        scripts |= merged_files(
            files[f"{BUNDLE}/pagefind.js"].read_text("utf-8"),
            base_path,
            hidden,
            worker_js=worker.read_text("utf-8") if worker is not None else None,
            heads=bundle_heads(files, bundles, base_path),
        )
    return scripts


def merging_script(bundles: Sequence[str], base_path: str, *, merged: bool | None = None) -> str:
    """``site-search.js``: the search box over the first bundle, merging the others (through
    :data:`MODULE` when ``merged``; by default, when there are others).

    ``bundles`` are the bundles' folders in the site (``/pagefind/``); below a base path
    (``/sub/``) both they and the results' URLs, which Pagefind knows site-relative, move
    under it. Every merged index is told the base URL: each resolves its own results."""
    values = {
        "BUNDLES": json.dumps([under(base_path, bundle) for bundle in bundles]),
        "FIRST": json.dumps(under(base_path, f"/{FOLDER}/"))
        if (len(bundles) > 1 if merged is None else merged)
        else "bundles[0]",
        "BASE_OPTION": "" if base_path == "/" else f"baseUrl: {json.dumps(base_path)}, ",
    }
    # One pass: a value that happens to spell a placeholder stays as it is.
    return _PLACEHOLDER.sub(lambda match: values[match.group()], _SCRIPT)


_PLACEHOLDER = re.compile("BUNDLES|FIRST|BASE_OPTION")

_SCRIPT = """\
(function () {
  var box = document.getElementById("search");
  if (!window.PagefindUI || !box) return;
  var bundles = BUNDLES;
  new PagefindUI({element: box, bundlePath: FIRST, BASE_OPTIONshowSubResults: false, showImages: false,
                  mergeIndex: bundles.slice(1).map(function (path) { return {BASE_OPTIONbundlePath: path}; }),
                  translations: {placeholder: box.dataset.label}});
  var input = box.querySelector(".pagefind-ui__search-input");
  if (input) input.setAttribute("aria-label", box.dataset.label);
})();
"""

_MODULE = r"""// site_builder: Pagefind's search over several bundles, answering as one index of them all.
import * as core from "./pagefind-core.js";

let bundles = 1;
export async function options(more) {
  await core.options({ ...more, basePath: BASE_PATH, mergeFilter: { bundle: "0" } });
  await core.enterPlaygroundMode();
}
export async function mergeIndex(path, more = {}) {
  await core.mergeIndex(path, { ...more, mergeFilter: { bundle: String(bundles++) } });
}
export const init = core.init;
export const preload = core.preload;
export const destroy = core.destroy;
export async function filters() {
  return {};
}

// A word as Pagefind indexes it: lower case, no diacritics ("é" is "e").
function folded(text) {
  return text.toLocaleLowerCase().normalize("NFD").replace(/\p{M}/gu, "");
}
function plain(text) {
  return folded(text).replace(/[^\p{L}\p{N}]/gu, "");
}

// The stem Pagefind searches for a word: its playground mode names it.
const stems = new Map();
async function stem(word) {
  if (!stems.has(word)) {
    const found = await core.search(word, { filters: { bundle: "none" } });
    stems.set(word, (found.search_keywords || [])[0] || word);
  }
  return stems.get(word);
}

// Per bundle, the ids of the pages a later bundle holds anew, or that are gone.
const HIDDEN = HIDDEN_IDS.map((ids) => new Set(ids));

// Each search's answers, by what was asked: how a bundle matches a word and which pages it
// lists for it are often the same search, asked twice.
let answers = new Map();

async function inBundle(one, term, options = {}, hiding = true) {
  const filters = { ...(options.filters || {}), bundle: String(one) };
  const key = JSON.stringify([term, { ...options, filters }]);
  if (!answers.has(key)) answers.set(key, core.search(term, { ...options, filters }));
  const results = (await answers.get(key)).results;
  return hiding && HIDDEN[one] ? results.filter((result) => !HIDDEN[one].has(result.id)) : results;
}

// What to ask bundle `one` for a keyword, where not the keyword itself ("one keyword").
const swapped = new Map();

// Every page bundle `one` matches the keyword with is hidden: the pages shown hold no word
// beginning with its stem, so one index of them would fall back to the longest word the stem
// begins with that they hold, where Pagefind's own fallback here may take a hidden page's word.
async function hiddenFallback(one, keyword, wanted) {
  for (let end = wanted.length - 1; end > 0; end--) {
    const prefix = wanted.slice(0, end);
    if ((await stem(prefix)) === prefix && (await inBundle(one, `"${prefix}"`)).length) {
      swapped.set(`${one} ${keyword}`, `"${prefix}"`);
      return "fb:" + prefix;
    }
  }
  return "";
}

// Bundle `one`'s results for `keywords`, each asked as `match` found it must be: Pagefind cannot
// take a quoted word beside others, so a query with one is asked word by word.
async function answer(one, keywords, options) {
  const terms = keywords.map((keyword) => swapped.get(`${one} ${keyword}`) || keyword);
  if (terms.every((term, i) => term === keywords[i])) return inBundle(one, keywords.join(" "), options);
  let pages = await inBundle(one, terms[0], options);
  for (const term of terms.slice(1)) {
    const ids = new Set((await inBundle(one, term, options)).map((result) => result.id));
    pages = pages.filter((result) => ids.has(result.id));
  }
  return pages;
}

// How bundle `one` matches a keyword of stem `wanted`: by words whose stem begins with it
// ("ext"), by Pagefind's fallback to the longest word the stem begins with ("fb:" and that
// word), or not at all (""). The words matched are those the first result's excerpt marks; a
// marked token may join several words ("</p>" holds "p", "PermissionError" "permission"), so
// each of its runs of letters and digits counts, and each part of a run split where a capital
// follows a small letter; only those beginning as the stem does can be its extension or prefix.
async function match(one, keyword, wanted) {
  const results = await inBundle(one, keyword);
  if (!results.length) {
    const all = await inBundle(one, keyword, {}, false);
    return all.length ? hiddenFallback(one, keyword, wanted) : "";
  }
  // A quoted word is searched by its stem alone: a bundle holding the stem itself matches by it
  // (no record need be read to tell).
  if ((await inBundle(one, `"${keyword}"`)).length) return "ext";
  const data = await results[0].data();
  const words = new Set();
  for (const marked of data.excerpt.matchAll(/<mark>(.*?)<\/mark>/g)) {
    const text = new DOMParser().parseFromString(marked[1], "text/html").body.textContent;
    const runs = text.match(/[\p{L}\p{N}]+/gu) || [];
    const parts = runs.flatMap((run) => run.split(/(?<=\p{Ll})(?=\p{Lu})/u)); // "PermissionError"
    for (const word of [plain(text), ...runs, ...parts].map(folded)) {
      if (word && word[0] === wanted[0]) words.add(word);
    }
  }
  const found = [];
  for (const word of words) found.push(await stem(word));
  if (!found.length || found.some((s) => s.startsWith(wanted))) return "ext";
  const shorter = found.filter((s) => s.length < wanted.length && wanted.startsWith(s));
  return shorter.length ? "fb:" + shorter.sort((a, b) => b.length - a.length)[0] : "ext";
}

// How one index of every bundle matches a keyword: by extension if any bundle does, else by
// the longest fallback word, else not at all (Pagefind then leaves the keyword out).
function required(kinds) {
  if (kinds.includes("ext")) return "ext";
  return kinds.filter((kind) => kind).sort((a, b) => b.length - a.length)[0] || "";
}

export async function search(term, options = {}) {
  answers = new Map();
  const all = [...Array(bundles).keys()];
  const keywords = term.split(/\s+/).map(plain).filter((keyword) => keyword);
  const kinds = [];
  for (const keyword of keywords) {
    const wanted = await stem(keyword);
    const row = [];
    for (const one of all) row.push(await match(one, keyword, wanted)); // one search at a time
    kinds.push(row);
  }
  const needs = kinds.map(required);
  const asked = keywords.filter((_, i) => needs[i] !== "");
  const found = [];
  for (const one of all) {
    if (asked.length && kinds.every((row, i) => row[one] === needs[i])) {
      found.push(...(await answer(one, asked, options)));
    }
  }
  const seen = new Set(); // a page is in one bundle: a second result for it is a stale copy
  const results = found.sort((x, y) => y.score - x.score).filter((r) => !seen.has(r.id) && seen.add(r.id));
  return { results, unfilteredResultCount: results.length, filters: {}, totalFilters: {}, timings: [] };
}

let latest = 0;
export async function debouncedSearch(term, options, wait = 300) {
  const mine = ++latest;
  await new Promise((done) => setTimeout(done, wait));
  return mine === latest ? search(term, options) : null;
}
"""

_SHIPPED_MODULE = re.sub(r"^[ \t]*//.*\n", "", _MODULE, flags=re.MULTILINE)
""":data:`_MODULE` as every reader downloads it: without its lines of comment, which are for
whoever reads this file."""
