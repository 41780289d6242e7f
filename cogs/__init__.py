"""Discord cogs: translate interactions into engine moves and render the results."""
