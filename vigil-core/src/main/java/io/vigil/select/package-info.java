/**
 * Model selection and training (thesis §3.4–3.5; docs/method.md §1): {@link io.vigil.select.Trainer} (and
 * {@link io.vigil.select.TransferTrainer}) fit a {@link io.vigil.model.VigilModel} from a training {@link
 * io.vigil.data.Dataset} with the parameters of a {@link io.vigil.select.TrainParams}, choosing k, γ, ℓ and local QDA's
 * k by cross-validation on the training series only.
 */
package io.vigil.select;
