"""Typing as a director does at the keyboard: `Keys` presses and counts keys, `wait_for_cursor`
waits until the page has put the cursor into a field.

Chromium applies `autofocus` in its next rendering step, not when the page has loaded: on a busy
machine a key pressed right after `page.goto` or a navigation went to the page instead of the field
(seen in CI: "12" arrived as "2"). A director waits for the cursor too."""

from __future__ import annotations


def wait_for_cursor(page, name: str) -> None:
    """Wait (up to Playwright's default timeout) until the field called `name` has the focus."""
    page.wait_for_function("name => document.activeElement && document.activeElement.name === name", arg=name)


class Keys:
    """Presses keys and counts them."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def type(self, text: str):
        for char in text:
            self.page.keyboard.press(char if char != " " else "Space")
            self.count += 1

    def press(self, key: str):
        self.page.keyboard.press(key)
        self.count += 1
