def test_buy(page):
    page.goto("/shop/", wait_until="commit")
    page.get_by_label("Gift wrap").check()
    page.click("#buy")
    page.wait_for_timeout(100)
    assert page.inner_text("#basket") == "1"
