"""The table (RULINGS T1, T2): its records, commands, corrections, options and parameters."""
