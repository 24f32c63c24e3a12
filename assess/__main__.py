"""`python -m assess …`: the headless command line (see assess.cli)."""

import sys

from assess.cli import main

sys.exit(main())
