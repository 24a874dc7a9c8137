"""``python -m tools.pictures`` (``make docs``): draw every picture of the manuals."""

import sys

from tools.pictures.generate import main

sys.exit(main())
