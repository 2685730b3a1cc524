"""``python -m pishe``: see :mod:`pishe.cli`."""

import sys

from .cli import main

sys.exit(main())
