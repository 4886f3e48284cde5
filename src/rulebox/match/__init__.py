"""Playing games between seats, game records, tournaments and ratings."""
