def test_buy(page):
    page.goto("/shop/", wait_until="commit")
    page.click("#buy")
    page.wait_for_timeout(100)
    assert page.inner_text("#basket") == "1"
