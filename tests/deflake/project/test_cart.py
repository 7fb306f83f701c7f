def test_add_to_cart(context):
    page = context.new_page()
    page.goto("/cart/")
    page.click("#add")
    page.get_by_text("Items:").hover()
    page.wait_for_timeout(200)
    count = page.inner_text("#count")
    assert count == "1"
