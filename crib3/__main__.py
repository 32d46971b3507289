from crib3.cli import main

# Guarded: the bots' worker processes are spawned, and a spawned process
# imports the parent's main module (this one, under `python -m crib3`).
if __name__ == "__main__":
    raise SystemExit(main())
