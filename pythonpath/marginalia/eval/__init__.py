"""The task eval: source documents, tasks and their checkers, the scorecard (pure)."""
