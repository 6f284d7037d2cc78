from tests.support.sites import HEADER, MakeSite, RunCli


def test_a_minimal_site_validates(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site(
        {
            "articles/first.py": HEADER
            + """
revisions = [revision(
    slug="first-post", title="First", categories=["Notes"], excerpt="A first post.",
    published="2024-01-02",
    body=[paragraph("Enough words to pass the tiny limit of this test site.")],
    sources=[Source(title="A", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")],
)]
"""
        }
    )
    result = run_cli(["validate", "--root", str(root)])
    assert (result.code, result.out) == (0, "")
    assert "ok: 1 revision valid, 0 fixtures passed" in result.err
