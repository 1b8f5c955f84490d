"""The dialogs of the Tools menu: nccl-tests prediction, calibrate a fabric from a log, MoE vs dense."""
