"""Questions asked of an assessment beyond the metric table: slices, folds, operating points, forecasts' rows,
computational cost and the ISO 5.3 controls. Computations only; nothing here draws."""
