"""Entry point of the bundled desktop app (packaging/fabric_whatif.spec): the same as ``fabric-whatif-gui``."""

import sys

from gui.app import main

if __name__ == "__main__":
    sys.exit(main())
