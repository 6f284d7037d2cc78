"""The ``revisions`` JSON that downstream importers read.

Keys and their order are fixed; output is UTF-8, not ASCII-escaped, and the
same bytes for the same input. The JSON Schema it must satisfy ships in the
package as ``schemas/revisions.schema.json``.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from site_builder.authoring.body import body_html, body_text, content_html, reading_minutes
from site_builder.authoring.model import Block, Revision, Source
from site_builder.model.batches import fixture_id
from site_builder.model.moments import day, has_time, timestamp
from site_builder.settings.project import Settings


def schema() -> dict[str, Any]:
    """The JSON Schema of the ``revisions`` array."""
    text = resources.files("site_builder").joinpath("schemas/revisions.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def revision_dict(rev: Revision, batch: str, settings: Settings) -> dict[str, object]:
    """One revision as importers read it."""
    lang = rev.lang or settings.language
    text = body_text(body_html(rev))
    fixtures = [fixture_id(b.verified.fixture) for b in rev.body if isinstance(b, Block) and b.verified]
    return {
        "slug": rev.slug,
        "title": rev.title,
        "categories": list(rev.categories),
        "cover": rev.cover,
        "excerpt": rev.excerpt,
        "readingMinutes": rev.reading_minutes or reading_minutes(text),
        "contentHtml": content_html(rev, settings.sources_label(lang), lang),
        "lang": lang,
        "published": rev.published,
        "batch": batch,
        "bodyChars": len(text),
        "sources": [_source(s) for s in rev.sources],
        "fixtures": list(dict.fromkeys(fixtures)),
        "draft": rev.draft,
        # Where it stands in its article's history: set here for a first revision; a later
        # one's numbers need every batch, and the main process sets them (see ``numbered``).
        "revision": None if rev.later else 1,
        "revises": None,
        "changes": rev.changes_html if rev.later else None,
        **_revised(rev.revised),
    }


def _source(source: Source) -> dict[str, str]:
    """A source as JSON: its title, address and note, and its quote when it has one (the key
    is left out without one, so a source written before quotes existed reads as it did)."""
    data = {"title": source.title, "url": source.url, "note": source.note}
    if source.quote:
        data["quote"] = source.quote
    return data


def _revised(revised: str | None) -> dict[str, str | None]:
    """A later revision's ``revised`` as two keys: its date (importers read it as one), and
    its date and time in RFC 3339 when it gives a time; None for what it lacks."""
    if revised is None:
        return {"revised": None, "revisedAt": None}
    return {"revised": day(revised), "revisedAt": timestamp(revised) if has_time(revised) else None}


def numbered(data: dict[str, object], revision: int) -> dict[str, object]:
    """``data`` as the ``revision``-th revision of its article (revising the one before)."""
    return data | {"revision": revision, "revises": revision - 1 if revision > 1 else None}


def dumps(data: object, indent: int | None) -> str:
    """Deterministic JSON text, UTF-8 characters kept, ending with a newline."""
    if indent:
        return json.dumps(data, ensure_ascii=False, indent=indent) + "\n"
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def fragment(item: object) -> str:
    """One element of the ``revisions.json`` array, indented as the array holds it."""
    # json.dumps escapes newlines inside strings, so every newline here is structure.
    return json.dumps(item, ensure_ascii=False, indent=2).replace("\n", "\n  ")


def latest_only(data: list[dict[str, object]]) -> list[dict[str, object]]:
    """The latest revision of each article (the last of its slug), where its first stood."""
    last = {str(d["slug"]): d for d in data}
    return [last[slug] for slug in dict.fromkeys(str(d["slug"]) for d in data)]
