"""Framework and scale terms: what the training software and the number of hosts add to a step.

Two terms, each with its source:

- **The training framework's compute rate** (``workload.framework``). ``megatron`` (Megatron-LM / Megatron-Core,
  the engine's calibration: Narayanan et al. 2021, Korthikanti et al. 2022, NVIDIA's recipes) runs the layers at the
  rates of :mod:`model.compute`. ``deepspeed``, the DeepSpeed-Megatron pipeline engine of 2021 (DeepSpeed's
  ``PipelineEngine`` driving Megatron's tensor-parallel layers), runs them at :data:`DEEPSPEED_COMPUTE_FRACTION` of
  that rate. Derived from two publications of the same model on the same cluster and plan: Megatron-Turing NLG 530B
  (105 × 20,480, TP 8 · PP 35, A100 80 GB on Selene) ran 126 TFLOP/s per GPU at 2,240 GPUs with global batch 1,920
  (240 micro-batches a pipeline) under DeepSpeed (Smith et al. 2022, §2.4), against 163 TFLOP/s at 2,520 GPUs with
  batch 2,520 (280 micro-batches) under Megatron-LM (Narayanan et al. 2021, Table 1); both count FLOPs by
  Narayanan et al.'s eq. 3. Without the 1F1B pipeline bubble ``(p − 1)/m`` of each: ``126·(1 + 34/240)`` against
  ``163·(1 + 34/280)``, 0.787. A fit to two published throughputs, not a measurement of one mechanism.
- **Stragglers** (``cluster.slow_host_fraction``). A synchronous step waits for its slowest host. MegaScale (Jiang
  et al., NSDI 2024) found about 0.5 % of hosts substantially slower (§5.1, the CUDA-event heat map) and removing
  them raised MFU by about 0.7 % at more than 10,000 GPUs (§6.3, "computational stragglers": hosts about 10 %
  slower in the same forward computations). A job of ``n`` hosts draws at least one slow host with probability
  ``1 − (1 − q)^n``; the step then takes :data:`STRAGGLER_STEP_SLOWDOWN` longer (0.7 MFU points of MegaScale's
  55.2 %, read as 0.7 points: 1.3 %). Grows with the job's hosts and saturates at about 1,000 hosts.
  ``slow_host_fraction = 0`` describes a cluster screened for slow hosts.

- **Communication that overlaps compute takes SMs from it.** NCCL runs each channel of a collective as one CUDA
  block on one SM (NCCL's design: a collective is one kernel of one block per channel); on an 8-GPU NVSwitch node
  it opens :data:`~model.nccl_tuning.SINGLE_NODE_CHANNELS` (16, NCCL INFO logs) for the data-parallel
  reduce-scatters and all-gathers, on a PCIe node fewer (:func:`nccl_channels`). While they run beside the layers' kernels, the compute has ``S − 16`` of the
  GPU's ``S`` SMs (``sm_count``, assets/gpus.toml): the overlapped time costs ``16/(S − 16)`` of itself in slower
  compute (:func:`overlap_compute_tax`; H100 SXM 0.138, A100 0.174). The same accounting as the tensor-parallel
  overlap's SMs (``TP_OVERLAP_GEMM_SLOWDOWN``, model/compute.py). It weighs most with ZeRO-3 / FSDP, whose
  gathers and reduce-scatters run through most of the step.

================================  =======  ====================================================================
constant                          value    source
================================  =======  ====================================================================
``DEEPSPEED_COMPUTE_FRACTION``    0.787    Smith et al. 2022 §2.4 against Narayanan et al. 2021 Table 1 (derived)
``SLOW_HOST_FRACTION``            0.005    MegaScale §5.1 ("approximately 0.5 %" of machines)
``STRAGGLER_STEP_SLOWDOWN``       0.013    MegaScale §6.3 (0.7 MFU points at 55.2 % MFU; derived)
================================  =======  ====================================================================
"""

from __future__ import annotations

import numpy as np

DEEPSPEED_COMPUTE_FRACTION = 126.0 * (1.0 + 34.0 / 240.0) / (163.0 * (1.0 + 34.0 / 280.0))
SLOW_HOST_FRACTION = 0.005
STRAGGLER_STEP_SLOWDOWN = 0.7 / 55.2

FRAMEWORKS = ("megatron", "deepspeed")
FRAMEWORK_COMPUTE_FRACTION = {"megatron": 1.0, "deepspeed": DEEPSPEED_COMPUTE_FRACTION}


def compute_time_scale(framework: str) -> float:
    """The layers' compute time under ``framework`` relative to Megatron-LM's [-] (≥ 1)."""
    return 1.0 / FRAMEWORK_COMPUTE_FRACTION[framework]


def plan_hosts(tp, pp, cp, dp, gpus_per_node):
    """Hosts a plan's ranks occupy [-]: ``ceil(tp · pp · cp · dp / gpus_per_node)``, elementwise (what
    :func:`straggler_factor` counts)."""
    return np.ceil(tp * pp * cp * dp / gpus_per_node)


def straggler_factor(hosts, slow_host_fraction=SLOW_HOST_FRACTION):
    """The step's time with stragglers over its time without [-]: ``1 + S·(1 − (1 − q)^n)`` for ``n`` hosts, each
    slow with probability ``q`` (``S``: :data:`STRAGGLER_STEP_SLOWDOWN`). Elementwise; 1 for one host and ``q = 0``
    alike only where ``q = 0`` (one host can itself be slow)."""
    n = np.maximum(np.asarray(hosts, dtype=float), 0.0)
    q = np.asarray(slow_host_fraction, dtype=float)
    return 1.0 + STRAGGLER_STEP_SLOWDOWN * -np.expm1(n * np.log1p(-q))


def nccl_channels(intra_link: str) -> float:
    """Channels NCCL opens for a collective on a GPU of a node whose GPUs share ``intra_link`` (assets/gpus.toml):
    :data:`~model.nccl_tuning.SINGLE_NODE_CHANNELS` where NVSwitch joins them (NCCL INFO logs of 8-GPU NVSwitch
    nodes), else :data:`~model.nccl_tuning.CHANNELS_PER_NIC` (a PCIe node: its rings through the PCIe switch and
    the NIC, the collectives module's channels of one NIC; a guess)."""
    from .nccl_tuning import CHANNELS_PER_NIC, SINGLE_NODE_CHANNELS
    return SINGLE_NODE_CHANNELS if "Switch" in intra_link else CHANNELS_PER_NIC


def overlap_compute_tax(sm_count, channels=None):
    """Compute time lost per second of data-parallel traffic that overlaps it [-]: NCCL's ``channels``, one SM each,
    taken from the GPU's ``sm_count`` SMs: ``c / (S − c)``; ``channels`` defaults to an NVSwitch node's
    (:func:`nccl_channels`)."""
    from .nccl_tuning import SINGLE_NODE_CHANNELS
    c = SINGLE_NODE_CHANNELS if channels is None else float(channels)
    return c / (float(sm_count) - c)
