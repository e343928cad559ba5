/**
 * Cross-fitted calibration of a model's early decisions (docs/method.md §5–§6): {@link
 * io.vigil.early.calibrate.CrossFitCalibrator} refits the model without each fold, replays the held-out series, learns
 * the variance inflation and certifies thresholds, storing them in the model's calibration section; {@link
 * io.vigil.early.calibrate.CalibrationParams} says how.
 */
package io.vigil.early.calibrate;
