"""GMCP's channel rules without a socket: agreement, Core.Hello, Core.Supports."""
from __future__ import annotations

from telnetlib3.telopt import GMCP

from server.net.mud import Gmcp, send


class Options:
    def __init__(self, on: bool) -> None:
        self.on = on

    def enabled(self, opt: bytes) -> bool:
        return self.on and opt == GMCP


class Writer:
    def __init__(self, agreed: bool) -> None:
        self.local_option = Options(agreed)
        self.sent: list[tuple[str, object]] = []

    def send_gmcp(self, package: str, data: object) -> None:
        self.sent.append((package, data))


def test_nothing_is_sent_to_a_client_that_did_not_agree():
    writer = Writer(agreed=False)
    channel = Gmcp(writer)
    channel.send("Char.Status", {"wallet": 1})
    assert writer.sent == [] and not channel.enabled


def test_every_package_until_the_client_names_its_modules_then_only_those():
    writer = Writer(agreed=True)
    channel = Gmcp(writer)
    channel.send("Casino.Roll", {"total": 7})
    assert writer.sent == [("Casino.Roll", {"total": 7})]
    channel.receive("Core.Supports.Set", ["Char 1", "Room 1"])
    channel.send("Casino.Roll", {"total": 8})
    channel.send("Char.Status", {"wallet": 2})
    assert writer.sent[-1] == ("Char.Status", {"wallet": 2}) and len(writer.sent) == 2
    channel.receive("Core.Supports.Add", ["Casino 1"])
    channel.send("Casino.Table", {})
    channel.receive("Core.Supports.Remove", ["Char"])
    channel.send("Char.Status", {"wallet": 3})
    assert [p for p, _ in writer.sent] == ["Casino.Roll", "Char.Status", "Casino.Table"]


def test_core_hello_is_kept_short_and_odd_messages_are_ignored():
    channel = Gmcp(Writer(agreed=True))
    channel.receive("Core.Hello", {"client": "Mudlet" * 40, "version": "4.17"})
    assert channel.client == {"client": ("Mudlet" * 40)[:64], "version": "4.17"}
    channel.receive("Core.Supports.Set", "not a list")
    channel.receive("Something.Else", [1, 2])
    assert channel.modules is None


def test_a_stand_in_session_without_a_channel_is_skipped():
    class Bare:
        pass
    send(Bare(), "Char.Status", {})          # no error, nothing to send to


def test_the_option_bytes_named_here_are_telnetlib3s():
    """server.net.mud names GMCP and MSSP itself so the portal loads no telnetlib3."""
    from telnetlib3 import telopt

    from server.net import mud
    assert (mud.GMCP, mud.MSSP) == (telopt.GMCP, telopt.MSSP)


class PageWriter:
    """The browser edge's writer as the page's channel uses it: data frames."""

    def __init__(self) -> None:
        self.frames: list[tuple[str, object]] = []

    def data(self, package: str, payload: object) -> None:
        self.frames.append((package, payload))


def test_the_pages_channel_takes_the_tables_data_and_room_info_only():
    from types import SimpleNamespace

    from server.net import mud
    from server.net.web import PageChannel
    writer = PageWriter()
    channel = PageChannel(writer)  # type: ignore[arg-type]
    session = SimpleNamespace(gmcp=channel)
    for package in ("Casino.Table", "Casino.Dealer", "Room.Info", "Char.Status", "Char.Stats", "Core.Ping"):
        send(session, package, {"p": package})
    assert [p for p, _ in writer.frames] == ["Casino.Table", "Casino.Dealer", "Room.Info"]
    assert mud.wants(session, "Casino.Table") and not mud.wants(session, "Char.Status")  # not even made
    assert not mud.wants(SimpleNamespace(gmcp=None), "Casino.Table")
