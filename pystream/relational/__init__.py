"""The Table API's plan: frozen expression and operation nodes, Flink's type rules, names."""
