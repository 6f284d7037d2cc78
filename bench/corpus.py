"""Deterministic benchmark corpus: one article text, five projects.

``python bench/corpus.py --n N --out DIR`` writes N synthetic revisions (batches of three) as

* ``DIR/site_builder``: a site_builder site (``articles/batch_00001.py`` …, one fixture per batch);
* ``DIR/pelican``, ``DIR/mkdocs``, ``DIR/eleventy``, ``DIR/hugo``: the same text as Markdown
  projects with a minimal theme (an article page and a list page, syntax highlighting on).

Every revision is ~8,000 characters of mixed Cyrillic and Latin prose in 8–12 sections with
inline code, bold and links, one python or sql code block, one ordered list, one 5×4 table,
one figure (a shared SVG), three sources and the batch fixture's verified output. Revision
``i`` is drawn from ``random.Random(f"bench-{i}")``, so the same N gives the same bytes and a
larger corpus starts with the smaller one.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

BATCH_SIZE = 3
TARGET_BODY_CHARS = 8000
FIGURE_PATH = "/assets/figure.svg"
SITE_TITLE = "Bench corpus"
BASE_URL = "https://bench.example/"


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


CYRILLIC = _words(
    "запрос ответ сервер клиент журнал запись чтение ключ строка таблица индекс очередь повтор "
    "задержка бюджет граница проверка тест сбой отказ узел кластер реплика транзакция блокировка "
    "версия схема миграция поле значение поток событие счётчик метрика кэш память диск сеть пакет "
    "порядок время часы секунда сообщение подписка издатель потребитель смещение раздел лидер "
    "голосование кворум снимок откат фиксация конфликт слияние дерево хеш подпись сертификат"
)
LATIN = _words(
    "request response server client log write read key row table index queue retry delay budget "
    "bound check test failure node cluster replica transaction lock version schema migration field "
    "value stream event counter metric cache memory disk network packet order clock message "
    "offset partition leader quorum snapshot rollback commit conflict merge tree hash signature"
)
IDENTIFIERS = _words(
    "retry_after max_delay idempotency_key commit_index read_timeout batch_size fsync lsn "
    "consumer_offset lease_ttl snapshot_id vector_clock write_ahead_log backoff_ms"
)
CATEGORIES = (
    "Базы данных",
    "HTTP",
    "Reliability",
    "Тестирование",
    "Distributed systems",
    "Очереди",
    "Storage",
    "Сети",
    "Security",
    "Производительность",
    "Backend",
    "Наблюдаемость",
)
SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120" viewBox="0 0 320 120">'
    '<rect width="320" height="120" fill="#f4f6fa"/>'
    '<rect x="20" y="40" width="80" height="40" fill="#36c"/>'
    '<rect x="120" y="40" width="80" height="40" fill="#3a6"/>'
    '<rect x="220" y="40" width="80" height="40" fill="#c63"/>'
    "</svg>\n"
)


# --- The article model ----------------------------------------------------------------------


@dataclass(frozen=True)
class Heading:
    text: str


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Code:
    code: str
    language: str


@dataclass(frozen=True)
class OrderedList:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    caption: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Figure:
    src: str
    alt: str
    caption: str


@dataclass(frozen=True)
class Verified:
    expected: dict[str, int]


Block = Heading | Paragraph | Code | OrderedList | Table | Figure | Verified


@dataclass(frozen=True)
class SourceRef:
    title: str
    url: str
    note: str


@dataclass(frozen=True)
class Article:
    index: int
    slug: str
    title: str
    categories: tuple[str, ...]
    excerpt: str
    published: str
    body: tuple[Block, ...]
    sources: tuple[SourceRef, ...]


@dataclass(frozen=True)
class BatchFixture:
    """``values = [(i * mul + add) % mod for i in range(count)]``; expected count and total."""

    count: int
    mul: int
    add: int
    mod: int

    def expected(self) -> dict[str, int]:
        values = [(i * self.mul + self.add) % self.mod for i in range(self.count)]
        return {"count": self.count, "total": sum(values)}


def batch_name(batch: int) -> str:
    return f"batch_{batch:05d}"


def batch_fixture(batch: int) -> BatchFixture:
    rng = random.Random(f"fixture-{batch}")
    return BatchFixture(rng.randint(50, 500), rng.randint(3, 97), rng.randint(0, 50), rng.randint(101, 997))


# --- Prose ------------------------------------------------------------------------------------


def word(rng: random.Random) -> str:
    return rng.choice(CYRILLIC) if rng.random() < 0.6 else rng.choice(LATIN)


def decorated_word(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.04:
        return f"`{rng.choice(IDENTIFIERS)}`"
    if roll < 0.07:
        return f"**{word(rng)} {word(rng)}**"
    if roll < 0.09:
        return f"[{word(rng)} {word(rng)}](https://example.org/ref/{rng.randint(1, 9999)})"
    return word(rng)


def sentence(rng: random.Random) -> str:
    words = [decorated_word(rng) for _ in range(rng.randint(8, 16))]
    first = words[0]
    words[0] = first[0].upper() + first[1:] if first[0].isalpha() else first
    return " ".join(words) + ("." if rng.random() < 0.9 else "?")


def plain_length(text: str) -> int:
    """Characters of rendered text: Markdown markers and link targets removed."""
    text = re.sub(r"\]\([^)]*\)", "", text)
    return len(re.sub(r"[`*\[]", "", text))


def prose(rng: random.Random, budget: int) -> list[str]:
    """Paragraphs of 300–700 characters until ``budget`` rendered characters are written."""
    paragraphs: list[str] = []
    written = 0
    while written < budget - 250:
        sentences: list[str] = []
        size = rng.randint(300, 700)
        while sum(map(plain_length, sentences)) < size:
            sentences.append(sentence(rng))
        text = " ".join(sentences)
        paragraphs.append(text)
        written += plain_length(text) + 1
    return paragraphs


def title_words(rng: random.Random, count: int) -> str:
    text = " ".join(word(rng) for _ in range(count))
    return text[0].upper() + text[1:]


# --- Special blocks --------------------------------------------------------------------------


def python_code(rng: random.Random) -> str:
    name, arg = rng.sample(IDENTIFIERS, 2)
    limit = rng.randint(3, 30)
    return (
        f"def {name}({arg}: list[int], limit: int = {limit}) -> dict[str, int]:\n"
        f'    """Count the {rng.choice(LATIN)} values below the limit."""\n'
        f"    kept = [value for value in {arg} if value < limit]\n"
        "    total = 0\n"
        "    for value in kept:\n"
        f"        total += value * {rng.randint(2, 9)}\n"
        '    return {"kept": len(kept), "total": total}\n'
    )


def sql_code(rng: random.Random) -> str:
    table, column = rng.sample(LATIN, 2)
    return (
        f"CREATE TABLE {table}s (\n"
        "    id bigint PRIMARY KEY,\n"
        f"    {column} text NOT NULL,\n"
        "    created_at timestamptz NOT NULL DEFAULT now()\n"
        ");\n"
        f"INSERT INTO {table}s (id, {column}) VALUES ({rng.randint(1, 999)}, 'x')\n"
        "ON CONFLICT (id) DO NOTHING;\n"
        f"SELECT {column}, count(*) FROM {table}s\n"
        f"GROUP BY {column} ORDER BY 2 DESC LIMIT {rng.randint(5, 50)};\n"
    )


def code_block(rng: random.Random) -> Code:
    if rng.random() < 0.5:
        return Code(python_code(rng), "python")
    return Code(sql_code(rng), "sql")


def ordered_list(rng: random.Random) -> OrderedList:
    return OrderedList(tuple(sentence(rng) for _ in range(rng.randint(3, 6))))


def table(rng: random.Random) -> Table:
    headers = ("Узел", "Latency p50, ms", "Latency p99, ms", "Ошибки")
    rows = tuple(
        (f"{word(rng)}-{k}", str(rng.randint(1, 40)), str(rng.randint(40, 900)), str(rng.randint(0, 99)))
        for k in range(1, 6)
    )
    return Table(f"Измерения: {word(rng)} / {word(rng)}", headers, rows)


def figure(rng: random.Random) -> Figure:
    return Figure(FIGURE_PATH, f"Схема: {word(rng)}, {word(rng)} и {word(rng)}", sentence(rng))


def block_length(block: Block) -> int:
    match block:
        case Heading(text) | Paragraph(text):
            return plain_length(text)
        case Code(code, _):
            return len(code)
        case OrderedList(items):
            return sum(map(plain_length, items))
        case Table(caption, headers, rows):
            return len(caption) + sum(map(len, headers)) + sum(len(cell) for row in rows for cell in row)
        case Figure(_, _, caption):
            return len(caption)
        case Verified(expected):
            return len(json.dumps(expected, indent=2))
    return 0


# --- One article -----------------------------------------------------------------------------


def make_article(index: int) -> Article:
    """Revision ``index`` (1-based): the same text for every N."""
    rng = random.Random(f"bench-{index}")
    batch = (index - 1) // BATCH_SIZE + 1
    sections = rng.randint(8, 12)
    specials: list[Block] = [
        code_block(rng),
        ordered_list(rng),
        table(rng),
        figure(rng),
        Verified(batch_fixture(batch).expected()),
    ]
    homes = rng.sample(range(sections), len(specials))
    headings = [Heading(title_words(rng, rng.randint(2, 5))) for _ in range(sections)]
    budget = TARGET_BODY_CHARS - sum(map(block_length, specials)) - sum(map(block_length, headings))
    body: list[Block] = [Paragraph(text) for text in prose(rng, budget // (sections + 1))]
    for number, heading in enumerate(headings):
        body.append(heading)
        body.extend(Paragraph(text) for text in prose(rng, budget // (sections + 1)))
        body.extend(special for special, home in zip(specials, homes, strict=True) if home == number)
    title = title_words(rng, rng.randint(3, 7))
    return Article(
        index=index,
        slug=f"bench-{index:05d}-" + "-".join(rng.sample(LATIN, 2)),
        title=f"{title} №{index}",
        categories=tuple(rng.sample(CATEGORIES, rng.randint(1, 2))),
        excerpt=sentence(rng),
        published=(date(2015, 1, 1) + timedelta(days=rng.randint(0, 3650))).isoformat(),
        body=tuple(body),
        sources=tuple(
            SourceRef(
                title=f"{title_words(rng, 3)} ({k})",
                url=f"https://example.org/sources/{index}/{k}",
                note=sentence(rng),
            )
            for k in range(1, 4)
        ),
    )


def batches(n: int) -> Iterator[tuple[int, list[Article]]]:
    for start in range(1, n + 1, BATCH_SIZE):
        batch = (start - 1) // BATCH_SIZE + 1
        yield batch, [make_article(i) for i in range(start, min(start + BATCH_SIZE, n + 1))]


# --- site_builder --------------------------------------------------------------------------

IMPORTS = (
    "from site_builder import (\n"
    "    Source,\n    code_block,\n    data_table,\n    figure,\n    fixture,\n    heading,\n"
    "    ordered_list,\n    paragraph,\n    revision,\n    verified_output,\n)\n"
)


def py_block(block: Block, fixture_name: str) -> str:
    match block:
        case Heading(text):
            return f"heading({text!r})"
        case Paragraph(text):
            return f"paragraph({text!r})"
        case Code(code, language):
            return f"code_block({code!r}, language={language!r})"
        case OrderedList(items):
            return f"ordered_list({list(items)!r})"
        case Table(caption, headers, rows):
            return f"data_table({caption!r}, {list(headers)!r}, {[list(row) for row in rows]!r})"
        case Figure(src, alt, caption):
            return f"figure({src!r}, alt={alt!r}, caption={caption!r})"
        case Verified(expected):
            return f"verified_output({fixture_name}, expected={expected!r})"
    raise TypeError(block)


def py_revision(article: Article, fixture_name: str) -> str:
    body = "".join(f"            {py_block(block, fixture_name)},\n" for block in article.body)
    sources = "".join(
        f"            Source(title={s.title!r}, url={s.url!r}, note={s.note!r}),\n" for s in article.sources
    )
    return (
        "    revision(\n"
        f"        slug={article.slug!r},\n"
        f"        title={article.title!r},\n"
        f"        categories={list(article.categories)!r},\n"
        f"        excerpt={article.excerpt!r},\n"
        f"        cover={FIGURE_PATH!r},\n"
        f"        published={article.published!r},\n"
        '        lang="ru",\n'
        f"        body=[\n{body}        ],\n"
        f"        sources=[\n{sources}        ],\n"
        "    ),\n"
    )


def py_fixture(fx: BatchFixture, sleep: float = 0.0) -> str:
    total = fx.expected()["total"]
    return (
        "@fixture\n"
        "def checksum() -> dict:\n"
        + (
            f"    __import__('time').sleep({sleep})  # a fixture's own time (bench/shards.py --sleep)\n"
            if sleep
            else ""
        )
        + f"    values = [(i * {fx.mul} + {fx.add}) % {fx.mod} for i in range({fx.count})]\n"
        "    total = sum(values)\n"
        '    return {"count": len(values), "total": total, '
        f'"checks": {{"countMatches": len(values) == {fx.count}, "totalMatches": total == {total}}}}}\n'
    )


def py_module(batch: int, articles: list[Article], sleep: float = 0.0) -> str:
    revisions = "".join(py_revision(article, "checksum") for article in articles)
    return (
        f'"""Synthetic benchmark batch {batch:05d}, generated by bench/corpus.py."""\n\n'
        f"{IMPORTS}\n\n{py_fixture(batch_fixture(batch), sleep)}\n\nrevisions = [\n{revisions}]\n"
    )


def write_site_builder(root: Path, n: int, sleep: float = 0.0) -> None:
    (root / "pyproject.toml").write_text(
        "[tool.site_builder]\n"
        f'title = "{SITE_TITLE}"\n'
        f'base_url = "{BASE_URL}"\n'
        'language = "ru"\n'
        'description = "Synthetic benchmark corpus."\n'
        "min_sources = 3\n",
        encoding="utf-8",
    )
    write_file(root / "assets" / "figure.svg", SVG)
    for batch, articles in batches(n):
        write_file(root / "articles" / f"{batch_name(batch)}.py", py_module(batch, articles, sleep))


# --- Markdown --------------------------------------------------------------------------------


def md_block(block: Block) -> str:
    match block:
        case Heading(text):
            return f"## {text}"
        case Paragraph(text):
            return text
        case Code(code, language):
            return f"```{language}\n{code.strip()}\n```"
        case OrderedList(items):
            return "\n".join(f"{k}. {item}" for k, item in enumerate(items, 1))
        case Table(caption, headers, rows):
            lines = [f"*{caption}*", "", "| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
            return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])
        case Figure(src, alt, caption):
            return f"![{alt}]({src})\n\n*{caption}*"
        case Verified(expected):
            return f"```json\n{json.dumps(expected, ensure_ascii=False, indent=2)}\n```"
    raise TypeError(block)


def md_body(article: Article) -> str:
    parts = [md_block(block) for block in article.body]
    parts.append("## Проверяемые источники")
    parts.append("\n".join(f"- [{s.title}]({s.url}) — {s.note}" for s in article.sources))
    return "\n\n".join(parts) + "\n"


def q(text: str) -> str:
    """A YAML scalar (JSON is YAML)."""
    return json.dumps(text, ensure_ascii=False)


def yaml_front(article: Article, extra: str = "") -> str:
    return (
        "---\n"
        f"title: {q(article.title)}\n"
        f"date: {article.published}\n"
        f"description: {q(article.excerpt)}\n"
        f"categories: {json.dumps(list(article.categories), ensure_ascii=False)}\n"
        f"{extra}---\n\n"
    )


Namer = Callable[[Article], str]


def write_markdown(directory: Path, n: int, name: Namer, page: Namer) -> None:
    for _, articles in batches(n):
        for article in articles:
            write_file(directory / name(article), page(article))


def write_pelican(root: Path, n: int) -> None:
    write_file(
        root / "pelicanconf.py",
        f"AUTHOR = 'Bench'\nSITENAME = {SITE_TITLE!r}\nSITEURL = ''\nPATH = 'content'\n"
        "TIMEZONE = 'UTC'\nDEFAULT_LANG = 'ru'\nDEFAULT_PAGINATION = 20\nSTATIC_PATHS = ['assets']\n"
        "ARTICLE_URL = 'articles/{slug}/'\nARTICLE_SAVE_AS = 'articles/{slug}/index.html'\n"
        "MARKDOWN = {\n"
        "    'extension_configs': {\n"
        "        'markdown.extensions.codehilite': {'css_class': 'highlight'},\n"
        "        'markdown.extensions.extra': {},\n"
        "        'markdown.extensions.meta': {},\n"
        "    },\n"
        "    'output_format': 'html5',\n"
        "}\n",
    )
    write_file(root / "content" / "assets" / "figure.svg", SVG)

    def page(article: Article) -> str:
        return (
            f"Title: {article.title}\nDate: {article.published}\nCategory: {article.categories[0]}\n"
            f"Tags: {', '.join(article.categories)}\nSlug: {article.slug}\nSummary: {article.excerpt}\n\n"
            + md_body(article)
        )

    write_markdown(root / "content", n, lambda a: f"{a.slug}.md", page)


def write_mkdocs(root: Path, n: int) -> None:
    write_file(
        root / "mkdocs.yml",
        f"site_name: {SITE_TITLE}\nsite_url: {BASE_URL}\ntheme:\n  name: mkdocs\n"
        "markdown_extensions:\n  - tables\n  - fenced_code\n  - codehilite\n",
    )
    write_file(root / "docs" / "assets" / "figure.svg", SVG)
    links = "".join(f"- [{a.title}](articles/{a.slug}.md)\n" for _, batch in batches(n) for a in batch)
    write_file(root / "docs" / "index.md", f"# {SITE_TITLE}\n\n{links}")
    write_markdown(
        root / "docs" / "articles", n, lambda a: f"{a.slug}.md", lambda a: f"# {a.title}\n\n" + md_body(a)
    )


ELEVENTY_CONFIG = """const syntaxHighlight = require("@11ty/eleventy-plugin-syntaxhighlight");

module.exports = function (eleventyConfig) {
  eleventyConfig.addPlugin(syntaxHighlight);
  eleventyConfig.addPassthroughCopy({ "src/assets": "assets" });
  return { dir: { input: "src", output: "_site", includes: "_includes" } };
};
"""
ELEVENTY_BASE = """<!doctype html>
<html lang="ru">
<head><meta charset="utf-8"><title>{{ title }}</title></head>
<body><main>
{% if date and tags %}<p><time>{{ date.toISOString().slice(0, 10) }}</time></p>{% endif %}
<h1>{{ title }}</h1>
{{ content | safe }}
</main></body>
</html>
"""
ELEVENTY_INDEX = """---
layout: base.njk
title: Bench corpus
---
<ul>
{%- for post in collections.articles %}
<li><a href="{{ post.url }}">{{ post.data.title }}</a> — {{ post.data.description }}</li>
{%- endfor %}
</ul>
"""


def write_eleventy(root: Path, n: int) -> None:
    write_file(root / ".eleventy.js", ELEVENTY_CONFIG)
    write_file(root / "package.json", '{"name": "bench-corpus", "private": true}\n')
    write_file(root / "src" / "_includes" / "base.njk", ELEVENTY_BASE)
    write_file(root / "src" / "index.njk", ELEVENTY_INDEX)
    write_file(root / "src" / "assets" / "figure.svg", SVG)
    extra = "layout: base.njk\ntags: articles\n"
    write_markdown(
        root / "src" / "articles", n, lambda a: f"{a.slug}.md", lambda a: yaml_front(a, extra) + md_body(a)
    )


HUGO_SINGLE = """<!doctype html>
<html lang="ru">
<head><meta charset="utf-8"><title>{{ .Title }} · {{ .Site.Title }}</title></head>
<body><main>
<h1>{{ .Title }}</h1>
<p><time>{{ .Date.Format "2006-01-02" }}</time></p>
{{ .Content }}
</main></body>
</html>
"""
HUGO_LIST = """<!doctype html>
<html lang="ru">
<head><meta charset="utf-8"><title>{{ .Title }} · {{ .Site.Title }}</title></head>
<body><main>
<h1>{{ .Title }}</h1>
<ul>
{{- range .Pages }}
<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> — {{ .Description }}</li>
{{- end }}
</ul>
</main></body>
</html>
"""


def write_hugo(root: Path, n: int) -> None:
    write_file(
        root / "hugo.toml",
        f'baseURL = "{BASE_URL}"\ntitle = "{SITE_TITLE}"\nlanguageCode = "ru"\n'
        "[markup.highlight]\nnoClasses = false\n",
    )
    write_file(root / "layouts" / "_default" / "single.html", HUGO_SINGLE)
    write_file(root / "layouts" / "_default" / "list.html", HUGO_LIST)
    write_file(root / "static" / "assets" / "figure.svg", SVG)
    write_markdown(
        root / "content" / "articles",
        n,
        lambda a: f"{a.slug}.md",
        lambda a: yaml_front(a, f"slug: {a.slug}\n") + md_body(a),
    )


# --- Driver ------------------------------------------------------------------------------------

WRITERS: dict[str, Callable[[Path, int], None]] = {
    "site_builder": write_site_builder,
    "pelican": write_pelican,
    "mkdocs": write_mkdocs,
    "eleventy": write_eleventy,
    "hugo": write_hugo,
}


def write_file(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def generate(n: int, out: Path, tools: list[str] | None = None) -> None:
    """Write the corpus for each tool under ``out/TOOL``, replacing what was there."""
    for tool in tools or list(WRITERS):
        target = out / tool
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        WRITERS[tool](target, n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, required=True, help="number of revisions")
    parser.add_argument("--out", type=Path, required=True, help="output folder (one subfolder per tool)")
    names = ",".join(WRITERS)
    parser.add_argument("--tools", default=names, help=f"comma-separated subset of {names}")
    args = parser.parse_args()
    if args.n < 1:
        parser.error("--n must be positive")
    tools = [tool for tool in args.tools.split(",") if tool]
    unknown = set(tools) - set(WRITERS)
    if unknown:
        parser.error(f"unknown tools: {', '.join(sorted(unknown))}")
    generate(args.n, args.out, tools)


if __name__ == "__main__":
    main()
