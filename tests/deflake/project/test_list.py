def test_add_item(page):
    page.goto("/list/")
    page.fill("#new", "Milk")
    page.press("#new", "Enter")
    page.wait_for_timeout(300)
    assert page.locator("#items li").count() == 3
