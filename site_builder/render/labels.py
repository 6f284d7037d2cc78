"""The site chrome's words in each language the site is written in.

Article text is the author's; these are only the labels around it. A language
without its own table falls back to English.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class Labels:
    """Every word of the chrome, for one language."""

    contents: str
    """Heading of the table of contents."""
    minutes: str
    """Reading time; ``{n}`` is the number of minutes."""
    categories: str
    """Label before an article's categories, and the categories page title."""
    category: str
    """Prefix of a category page title."""
    search: str
    """Label of the search box."""
    verified: str
    """Heading of the note about fixtures; ``{n}`` is how many results are verified."""
    verified_none: str
    """The note when nothing in the article is backed by a fixture."""
    published: str
    """Label before the date."""
    articles: str
    """Heading of the list of articles."""
    not_found: str
    """Title of the 404 page."""
    not_found_text: str
    """Body of the 404 page."""
    home: str
    """Link back to the index."""
    feed: str
    """Link to the Atom feed."""
    skip: str
    """The skip link to the main content."""
    navigation: str
    """Name of the ordered navigation (the sidebar)."""
    previous: str
    """Link to the previous page in reading order."""
    next: str
    """Link to the next page in reading order."""
    proof_mark: str
    """The mark after each verified output; ``{fixture}`` is the fixture's name."""
    proof_fixtures: str
    """Heading of the article's list of fixtures; ``{n}`` is how many it lists."""
    proof_results: str
    """After a fixture in that list; ``{n}`` is how many outputs of the article it verifies."""
    draft: str
    """The mark of a draft a build includes (``--drafts``)."""
    scheduled: str
    """The mark of a revision published later (``--future``); ``{date}`` is its date."""


_LABELS = {
    "en": Labels(
        contents="Contents",
        minutes="{n} min read",
        categories="Categories",
        category="Category",
        search="Search",
        verified="{n} results verified by fixtures",
        verified_none="No result in this article is verified by a fixture.",
        published="Published",
        articles="Articles",
        not_found="Page not found",
        not_found_text="There is no page at this address.",
        home="Home",
        feed="Atom feed",
        skip="Skip to content",
        navigation="Pages",
        previous="Previous",
        next="Next",
        proof_mark="verified by fixture {fixture}",
        proof_fixtures="Fixtures that verify results: {n}",
        proof_results="verified results: {n}",
        draft="Draft",
        scheduled="Scheduled for {date}",
    ),
    "ru": Labels(
        contents="Содержание",
        minutes="{n} мин чтения",
        categories="Рубрики",
        category="Рубрика",
        search="Поиск",
        verified="Результатов, проверенных фикстурами: {n}",
        verified_none="Ни один результат этой статьи не проверен фикстурой.",
        published="Опубликовано",
        articles="Статьи",
        not_found="Страница не найдена",
        not_found_text="По этому адресу ничего нет.",
        home="На главную",
        feed="Лента Atom",
        skip="К содержимому",
        navigation="Страницы",
        previous="Назад",
        next="Далее",
        proof_mark="проверено фикстурой {fixture}",
        proof_fixtures="Фикстуры, проверяющие результаты: {n}",
        proof_results="проверенных результатов: {n}",
        draft="Черновик",
        scheduled="Запланировано на {date}",
    ),
    "ko": Labels(
        contents="목차",
        minutes="{n}분 분량",
        categories="분류",
        category="분류",
        search="검색",
        verified="픽스처로 검증된 결과: {n}개",
        verified_none="이 글의 결과 중 픽스처로 검증된 것은 없습니다.",
        published="게시일",
        articles="글 목록",
        not_found="페이지를 찾을 수 없습니다",
        not_found_text="이 주소에는 페이지가 없습니다.",
        home="처음으로",
        feed="Atom 피드",
        skip="본문으로 건너뛰기",
        navigation="페이지",
        previous="이전",
        next="다음",
        proof_mark="검증한 픽스처: {fixture}",
        proof_fixtures="결과를 검증하는 픽스처: {n}개",
        proof_results="검증한 결과: {n}개",
        draft="초안",
        scheduled="{date} 게시 예정",
    ),
}


def labels(lang: str) -> Labels:
    """The chrome's words for ``lang`` (``ru-RU`` uses ``ru``), English by default."""
    return _LABELS.get(lang, _LABELS.get(lang.split("-")[0].lower(), _LABELS["en"]))
