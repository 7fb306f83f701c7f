def test_search(page):
    page.goto("/search/")
    page.get_by_label("Search").fill("mug")
    page.wait_for_timeout(400)
    assert page.locator("#results li").count() == 2
