"""Hand-offs to other tools (MLflow): optional, each imported only when used."""
