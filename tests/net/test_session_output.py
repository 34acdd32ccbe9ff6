"""A Session's output blocks without a socket: a line heard from the crowd
leaves at once with its prompt, but never splits a reply in progress."""
from __future__ import annotations

from server.net.session import Session


class Blocks:
    """A Writer that keeps each block written, as the socket would get it."""

    def __init__(self) -> None:
        self.blocks: list[str] = []

    def write(self, text: str) -> None:
        self.blocks.append(text)

    write_prompt = write

    def get_extra_info(self, key: str) -> object:
        return None

    def unsent(self) -> int:
        return 0


async def test_a_heard_line_is_written_at_once_with_the_prompt():
    writer = Blocks()
    s = Session(writer, "127.0.0.1")
    s.prompt_text = "> "
    s.hear("ann says, \"hi\"")
    assert writer.blocks == ["ann says, \"hi\"\r\n> "]
    s.hear("bob says, \"yo\"")                       # the cursor sat after the prompt
    assert writer.blocks[-1] == "\r\nbob says, \"yo\"\r\n> "


async def test_a_heard_line_joins_the_reply_being_made():
    writer = Blocks()
    s = Session(writer, "127.0.0.1")
    s.prompt_text = "> "
    with s.reply():
        s.tell("Wallet: 1,000 chips.")
        s.hear("ann says, \"hi\"")
        assert writer.blocks == []
    assert writer.blocks == ["Wallet: 1,000 chips.\r\nann says, \"hi\"\r\n> "]
