from crib3.cli import main

raise SystemExit(main())
