"""Metadata mistakes: each revision gets one or two wrong fields."""

from site_builder import Source, paragraph, revision

A = Source(title="A", url="https://a.example/", note="a")
B = Source(title="B", url="https://b.example/", note="b")
TEXT = "Enough words to pass the tiny limit of this site."

bad_slug = revision(
    slug="Retry_Without_Effects",
    title="Bad slug",
    categories=["HTTP"],
    excerpt="A slug with capitals.",
    published="2024-01-02",
    body=[paragraph(TEXT)],
    sources=[A, B],
)

no_excerpt = revision(
    slug="no-excerpt",
    title="No excerpt",
    categories=["HTTP"],
    published="2024-01-03",
    body=[paragraph(TEXT)],
    sources=[A, B],
)

typo_field = revision(
    slug="typo-field",
    title="Typo",
    categories=["HTTP"],
    excerpt="A typo in a field name.",
    publishd="2024-01-04",
    published="2024-01-04",
    body=[paragraph(TEXT)],
    sources=[A, B],
)

wrong_types = revision(slug="wrong-types", title=42, categories=["HTTP"], excerpt="Types.",
                       published="2024-01-05", body=[paragraph(TEXT)], sources=[A, B],
                       reading_minutes=0)

no_category = revision(
    slug="no-category",
    title="No category",
    categories=[],
    excerpt="Nothing to file it under.",
    published="2024-01-06",
    body=[paragraph(TEXT)],
    sources=[A, B],
)

bad_date_and_lang = revision(
    slug="bad-date-and-lang",
    title="Bad date",
    categories=["HTTP", " "],
    excerpt="February has no 30th.",
    published="2024-02-30",
    lang="english",
    body=[paragraph(TEXT)],
    sources=[A, B],
)

shared_slug = revision(
    slug="shared-slug",
    title="   ",
    categories="HTTP",
    excerpt="The first use of a slug.",
    published="2024-01-07",
    body=[paragraph(TEXT)],
    sources=[A, B],
)

revisions = [bad_slug, no_excerpt, typo_field, wrong_types, no_category, bad_date_and_lang, shared_slug]
