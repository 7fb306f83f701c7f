def test_badge(page):
    page.goto("/badge/")
    page.wait_for_timeout(300)
    page.click("#add")
    page.wait_for_timeout(300)
    assert page.inner_text("#count") == "1"
