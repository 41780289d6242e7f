"""The process (README, How the code is laid out): settings, the Discord client, logs,
metrics and health, shard leases."""
