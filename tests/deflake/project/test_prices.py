def test_member_price(page):
    page.goto("/prices/")
    page.wait_for_timeout(300)
    assert page.inner_text("#price") == "$39.00"
