"""The widgets of the table; each draws from a seat's view and never touches the engine."""
