"""Playing with friends: the messages between pages (:mod:`.wire`), the host's side
(:mod:`.host`) and a guest's side (:mod:`.guest`), for any game of the table.

Both sides are plain objects that turn text messages into text messages, so
the page only carries strings between them and its data channels, and tests
connect them in memory. ``docs/PROTOCOL.md`` lists the messages.

>>> host, guest = Host("pishe-pasha", "one-deal"), Guest()
>>> waiting = [text for _, text in host.receive(guest.hello()).send]   # welcome, np-deal, np…
>>> while waiting:                                         # each page shuffles, locks, opens
...     for reply in guest.receive(waiting.pop(0)).send:
...         waiting += [text for _, text in host.receive(reply).send]
>>> host.phase, host.view()["match"]["length_name"]
('playing', 'One deal')
"""

from .guest import Guest
from .host import Host
from .wire import *  # noqa: F401,F403
from .wire import __all__ as _wire

__all__ = ["Host", "Guest", *_wire]
