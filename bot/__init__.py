"""The Mexican dice bot: engine, storage and start-up."""
