"""The scenario's sections: one frozen dataclass per TOML table, units in the field names.

``[cluster]``, ``[workload]``, ``[parallel]``, ``[fabric]`` (with ``[fabric.custom.NAME]``
as :class:`FabricSpec`), ``[reliability]``, ``[topology]``, ``[economics]``,
``[price_book]`` and ``[goals]``. Each field's default, limits and help live once, here,
in its metadata (:func:`model.fields.F`); :data:`SECTIONS` maps each table to its class.
The whole scenario and its conversion from and to plain data are :mod:`model.scenario`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import catalog
from .fields import F


@dataclass(frozen=True)
class Cluster:
    gpu: str = F("A100-SXM-80GB", help="GPU type, from assets/gpus.toml", label="GPU")
    nodes: int = F(24, lo=1, hi=100_000, help="Nodes (servers)", label="Nodes")
    # up to 72: one NVLink domain, a GB200 NVL72 rack (its 72 GPUs share NVLink switches, NCCL treats them as one node)
    gpus_per_node: int = F(8, lo=1, hi=72, help="GPUs in one node", label="GPUs per node")
    host_cores: int | None = F(None, lo=1, hi=4096, help="CPU cores per host; default from the GPU catalogue",
                               label="Host cores")
    cpu_for_network_fraction: float = F(0.5, lo=0.01, hi=1.0,
                                        help="Share of host cores the network stack may use; the rest feed the "
                                             "data pipeline (guess)", label="CPU share for network")
    slow_host_fraction: float = F(0.005, lo=0.0, hi=0.5,
                                  help="Share of hosts that run slower than the rest (stragglers): 0.005 as "
                                       "MegaScale found (Jiang et al. 2024, §5.1); 0 for a cluster screened for "
                                       "them", label="Slow hosts")


@dataclass(frozen=True)
class Workload:
    params_b: float = F(30.0, unit="B", lo=0.01, hi=100_000.0, help="Model parameters, billions",
                        label="Model parameters")
    layers: int | None = F(None, lo=1, hi=1000, help="Transformer layers; derived from params_b when omitted")
    hidden: int | None = F(None, lo=64, hi=200_000, help="Hidden size; derived when omitted")
    heads: int | None = F(None, lo=1, hi=2048, help="Attention heads; derived when omitted")
    vocab: int = F(51200, lo=1, hi=2_000_000, help="Vocabulary size")
    seq_len: int = F(2048, unit="tokens", lo=16, hi=1_048_576, help="Sequence length", label="Sequence length")
    global_batch: int = F(1024, unit="sequences", lo=1, hi=10_000_000, help="Global batch", label="Global batch")
    micro_batch: int | None = F(None, unit="sequences", lo=1, hi=4096,
                                help="Micro-batch; the engine picks the fastest that fits when omitted")
    train_tokens_b: float = F(300.0, unit="B tokens", lo=0.001, hi=1_000_000.0, help="Tokens to train, billions",
                              label="Training tokens")
    recompute: str | None = F(None, choices=("none", "selective", "full", "half"),
                              help="Activation recomputation: none, selective (the attention core), full (every "
                                   "layer), half (full on half of each stage's layers, Megatron-LM's block "
                                   "method); the plan search picks it when omitted")
    flash_attention: bool = F(True, help="FlashAttention (no s×s score matrix in memory)")
    kv_heads: int | None = F(None, lo=1, hi=2048, help="Key/value heads (grouped-query attention, Ainslie et al. "
                                                      "2023); default: heads (multi-head attention)")
    ffn_hidden: int | None = F(None, lo=1, hi=2_000_000,
                               help="Intermediate size of a SwiGLU MLP (three matrices, Shazeer 2020; Llama); "
                                    "omitted: a GPT MLP of 4 × hidden (two matrices)")
    untied_embeddings: bool = F(False, help="Separate input embedding and output layer (Llama); false: shared "
                                            "(GPT-3, Megatron default)")
    experts: int | None = F(None, lo=1, hi=4096, help="Mixture-of-experts: experts per MoE layer (every layer's "
                                                      "MLP; ffn_hidden is one expert's width); omitted: dense")
    top_k: int | None = F(None, lo=1, hi=64, help="Experts each token is routed to; default 2 with experts")
    capacity_factor: float = F(1.0, lo=1.0, hi=8.0, help="Expert capacity over the even share of tokens (GShard); "
                                                       "the padded tokens are computed and sent")
    shared_experts: int = F(0, lo=0, hi=64,
                            help="Shared experts every MoE layer runs for every token besides the routed ones, each "
                                 "ffn_hidden wide, never routed (DeepSeekMoE, Dai et al. 2024; DeepSeek-V3: 1)")
    dense_layers: int = F(0, lo=0, hi=1000,
                          help="First layers with a dense MLP instead of experts (DeepSeek-V3: the first 3 of 61)")
    dense_ffn_hidden: int | None = F(None, lo=1, hi=2_000_000,
                                     help="SwiGLU width of the dense first layers (DeepSeek-V3: 18,432); default: the "
                                          "active experts' width, (top_k + shared_experts) × ffn_hidden")
    expert_imbalance: float | None = F(None, lo=0.0, hi=4.0,
                                       help="Load imbalance of dropless routing: the busiest expert-parallel rank's "
                                            "routed tokens over the mean, minus one; its experts and all-to-all "
                                            "set the pace. Default 0.07 (Megatron MoE Model Zoo, Mixtral 8x22B: "
                                            "445 TFLOP/s dropless against 465 with forced balance)")
    max_routed_nodes: int | None = F(None, lo=1, hi=4096,
                                     help="Node-limited routing: each token goes to experts on at most this many "
                                          "nodes and crosses the fabric once per node, then NVLink (DeepSeek-V3: "
                                          "4); omitted: every routed copy is sent on its own")
    kv_lora_rank: int | None = F(None, lo=1, hi=65_536,
                                 help="Multi-head latent attention (DeepSeek-V2/V3): rank of the compressed "
                                      "key/value latent (DeepSeek-V3: 512); omitted: standard attention")
    q_lora_rank: int | None = F(None, lo=1, hi=65_536,
                                help="Multi-head latent attention: rank of the compressed query (DeepSeek-V3: "
                                     "1,536); omitted: queries projected from the hidden state directly")
    qk_nope_head_dim: int | None = F(None, lo=1, hi=4096,
                                     help="Multi-head latent attention: query/key head dimension without the rotary "
                                          "part (DeepSeek-V3: 128); default hidden / heads")
    qk_rope_head_dim: int | None = F(None, lo=0, hi=4096,
                                     help="Multi-head latent attention: rotary query/key dimension per head, the "
                                          "key's shared by all heads (DeepSeek-V3: 64); default 64")
    v_head_dim: int | None = F(None, lo=1, hi=4096,
                               help="Multi-head latent attention: value head dimension (DeepSeek-V3: 128); "
                                    "default hidden / heads")
    light_recompute: bool = F(False, help="Recompute the normalisations, the SwiGLU activation and latent attention's "
                                          "up-projections in the backward pass instead of storing their outputs "
                                          "(DeepSeek-V3 report §3.2.3 and §3.3.3; Megatron-Core recompute_modules "
                                          "layernorm, moe_act, mla_up_proj)")
    fp8_activations: bool = F(False, help="Cache the linear layers' inputs for the backward pass in FP8, one byte "
                                          "each (DeepSeek-V3 report §3.3.3); needs precision = fp8")
    precision: str = F("bf16", choices=("bf16", "fp8"),
                       help="Matmul precision: bf16, or fp8 (Transformer Engine; needs FP8 tensor cores)")
    grad_precision: str = F("bf16", choices=("bf16", "fp8", "fp32"),
                            help="Gradients on the wire (data-parallel reduce-scatter / all-reduce): bf16, fp8 "
                                 "(with precision = fp8; half the bytes) or fp32 (twice; Llama 3 reduce-scatters "
                                 "in FP32)")
    framework: str = F("megatron", choices=("megatron", "deepspeed"),
                       help="Training software: megatron (Megatron-LM / Megatron-Core, NeMo) or deepspeed (the "
                            "DeepSpeed-Megatron pipeline engine of 2021, e.g. Megatron-Turing NLG: 0.79 of "
                            "Megatron-LM's compute rate, Smith et al. 2022 against Narayanan et al. 2021)")


@dataclass(frozen=True)
class Parallel:
    mode: str | None = F(None, choices=("auto", "explicit"),
                         help="auto: the engine picks the fastest plan that fits; explicit: tp/pp as given. "
                              "Default: explicit when tp or pp is given")
    tp: int | None = F(None, lo=1, hi=1024, help="Tensor-parallel degree")
    pp: int | None = F(None, lo=1, hi=1024, help="Pipeline-parallel degree")
    virtual_stages: int | None = F(None, lo=1, hi=64,
                                   help="Model chunks per pipeline stage (interleaved 1F1B); picked when omitted")
    sequence_parallel: bool = F(True, help="Megatron sequence parallelism")
    distributed_optimizer: bool | None = F(None, help="Shard optimizer state over data parallel (ZeRO-1); "
                                                      "false means zero_stage = 0, true zero_stage = 1 unless "
                                                      "zero_stage is given")
    zero_stage: int | None = F(None, lo=0, hi=3,
                               help="Sharding over data parallel (Rajbhandari et al. 2020): 0 none, 1 optimizer "
                                    "(distributed optimizer), 2 + gradients, 3 + weights (FSDP); searched when "
                                    "omitted")
    dp_overlap: bool = F(True, help="Overlap the gradient all-reduce with the last backward pass")
    tp_overlap: bool = F(False, help="Overlap tensor-parallel communication with the layer's GEMMs (Megatron-Core / "
                                     "Transformer Engine userbuffers, as NeMo's performance recipes do)")
    ep_overlap: bool = F(False, help="Overlap the experts' all-to-all across nodes with another micro-batch's "
                                     "compute (DeepSeek-V3's DualPipe; Megatron-Core's expert-parallel overlap)")
    ep: int | None = F(None, lo=1, hi=4096, help="Expert-parallel degree (divides experts; carved out of data × "
                                                "context parallelism); searched for MoE models when omitted")
    expert_tp: int | None = F(None, lo=1, hi=72,
                              help="Tensor-parallel degree of the experts, apart from the attention's tp (Megatron-"
                                   "Core expert_tensor_parallel_size, MoE parallel folding, Liu et al. 2025); "
                                   "default: tp")
    uneven_stages: bool = F(True, help="Pipeline stages may hold different numbers of layers (Megatron-Core "
                                       "decoder_first/last_pipeline_num_layers; DeepSeek-V3's 61 layers on 16 "
                                       "stages): a pipeline without interleaving splits them any way that leaves "
                                       "each stage a layer, the busiest setting the pace; interleaved chunks stay "
                                       "even or one short at both ends (Llama 3 405B's 126 layers). False: an "
                                       "even split, or the first and last stage one layer short")
    cp: int | None = F(None, lo=1, hi=64, help="Context-parallel degree: each sequence split over cp GPUs, ring "
                                               "attention between them; searched for long sequences when omitted")

    @property
    def resolved_mode(self) -> str:
        if self.mode:
            return self.mode
        return "explicit" if (self.tp is not None or self.pp is not None) else "auto"


@dataclass(frozen=True)
class FabricSpec:
    """Per-fabric values; a field left out takes the active profile set's value for its transport."""
    transport: str | None = F(None, choices=("tcp", "roce", "iwarp", "infiniband"), help="Transport kind")
    label: str | None = F(None, help="Display name")
    link_gbps: float | None = F(None, unit="Gb/s", lo=0.1, hi=100_000.0, help="Line rate per NIC",
                                label="Bandwidth per NIC")
    nics_per_node: int | str | None = F(None, lo=1, hi=72, label="NICs per node", help="NICs per node, or \"per_gpu\"")
    latency_us: float | None = F(None, unit="µs", lo=0.0, hi=1_000_000.0, help="One-way latency per network step",
                                 label="Latency")
    loss_rate: float | None = F(None, lo=0.0, hi=0.5, help="Fraction of packets lost", label="Packet loss")
    achievable_fraction: float | None = F(None, lo=0.01, hi=1.0,
                                          label="Achievable bandwidth share",
                                          help="nccl-tests bus bandwidth / line rate")
    cpu_gbps_per_core: float | None = F(None, unit="Gb/s", lo=0.01, hi=100_000.0, inf_ok=True,
                                        label="Traffic per host core",
                                        help="Traffic one host core can drive (inf: offloaded)")
    mss_bytes: int | None = F(None, unit="B", lo=64, hi=65_536,
                              label="TCP segment size", help="TCP maximum segment size")
    mtu_bytes: int | None = F(None, unit="B", lo=256, hi=65_536, label="RDMA packet size", help="RDMA packet size")
    sockets_per_connection: int | None = F(None, lo=1, hi=64, label="TCP sockets per connection",
                                           help="Sockets NCCL's socket transport opens per connection: "
                                                "NCCL_SOCKET_NTHREADS × NCCL_NSOCKS_PERTHREAD (NCCL default 1 × 1; "
                                                "2 × 8 on AWS, 4 × 1 on Google Cloud; at most 64)")
    gpudirect_tcp: bool | None = F(None, label="GPUDirect TCP",
                                   help="TCP with payloads straight to and from GPU memory (Linux devmem TCP, "
                                        "GPUDirect-TCPX/TCPXO): no host copy and no CPU cap, ~96.6 % of line rate "
                                        "unless achievable_fraction is set; the same TCP loss recovery")
    net_interruptions_per_1m_node_hours: float | None = F(
        None, unit="per 10⁶ node·h", lo=0.0, hi=1e6, help="Job interruptions the network causes, per million "
                                                            "node-hours", label="Network interruptions")
    switch_radix: int | None = F(None, lo=4, hi=1024, help="Ports per switch at the NIC speed", label="Switch radix")
    switch_price_usd: float | None = F(None, unit="USD", lo=0.0, hi=1e8,
                                       label="Switch price", help="Price of one switch")
    switch_power_w: float | None = F(None, unit="W", lo=0.0, hi=1e5,
                                     label="Switch power", help="Power of one switch without optics")
    nic_price_usd: float | None = F(None, unit="USD", lo=0.0, hi=1e6, label="NIC price", help="Price of one NIC")
    nic_power_w: float | None = F(None, unit="W", lo=0.0, hi=1e4, label="NIC power", help="Power of one NIC")
    link_price_usd: float | None = F(None, unit="USD", lo=0.0, hi=1e6,
                                     label="Link price", help="Price of one link with its cable and "
                                                                           "optics")
    spine_switch_price_usd: float | None = F(None, unit="USD", lo=0.0, hi=1e8, label="Spine switch price",
                                             help="Price of one spine (second-tier) switch; default: the switch "
                                                  "price")
    core_switch_price_usd: float | None = F(None, unit="USD", lo=0.0, hi=1e8, label="Core switch price",
                                            help="Price of one core (third-tier) switch; default: the switch price")
    optic_price_usd: float | None = F(None, unit="USD", lo=0.0, hi=1e6, label="Optic price",
                                      help="Price of one transceiver; with cable_price_usd, links are priced as "
                                           "their cables and optics instead of link_price_usd")
    cable_price_usd: float | None = F(None, unit="USD", lo=0.0, hi=1e6, label="Cable price",
                                      help="Price of one cable (fibre or copper); given with optic_price_usd")
    optic_power_w: float | None = F(None, unit="W", lo=0.0, hi=1e3,
                                    label="Optic power", help="Power of one transceiver (one link end)")
    loss_recovery: str | None = F(None, choices=("go_back_n", "selective_repeat", "link_retry"),
                                  help="RDMA loss recovery (roce, infiniband): go_back_n (RC default), "
                                       "selective_repeat (IRN; ConnectX-6 Dx and later) or link_retry (link-level "
                                       "retransmission, a vendor option)", label="Loss recovery")
    min_rto_ms: float | None = F(None, unit="ms", lo=0.0, lo_open=True, hi=100_000.0,
                                 help="Minimum retransmission timeout. TCP: the route's rto_min (ip route ... "
                                      "rto_min), Linux default 200 ms; a tuned data centre sets a few ms. It fires "
                                      "only when a lost tail's probe is lost too. RDMA: go-back-N's tail-loss "
                                      "timeout", label="Minimum RTO")
    adaptive_routing: bool | None = F(None, help="Switches spread packets over the uplinks (InfiniBand, Spectrum-X); "
                                                 "false: ECMP hashes each flow onto one uplink",
                                      label="Adaptive routing")
    qps_per_connection: int | None = F(None, lo=1, hi=128,
                                       label="Queue pairs per connection", help="RDMA queue pairs per NCCL connection "
                                                                "(NCCL_IB_QPS_PER_CONNECTION): more, smaller "
                                                                "flows for ECMP to spread")
    sharp: bool | None = F(None, label="SHARP",
                           help="InfiniBand in-network reduction (SHARP, NCCL's CollNet): the switches reduce, each "
                                "node sends and receives an all-reduce's bytes once; needs the switches' aggregation "
                                "manager and NCCL's SHARP plugin (default: off, as on a default cluster)")
    nccl_simple_hop_us: float | None = F(None, unit="µs", lo=0.0, hi=1e6,
                                         help="NCCL Simple protocol latency per hop, as calibrate fits it from an "
                                              "nccl-tests log (default: NCCL's tuning.cc)")
    nccl_ll128_hop_us: float | None = F(None, unit="µs", lo=0.0, hi=1e6,
                                        help="NCCL LL128 protocol latency per hop, as calibrate fits it from an "
                                             "nccl-tests log (default: NCCL's tuning.cc)")
    nccl_ll_hop_us: float | None = F(None, unit="µs", lo=0.0, hi=1e6,
                                     help="NCCL LL protocol latency per hop, as calibrate fits it from an "
                                          "nccl-tests log (default: NCCL's tuning.cc)")
    nccl_fill_bytes: float | None = F(None, unit="B", lo=0.0, lo_open=True, hi=2.0**40,
                                      help="Bytes per NCCL channel in flight per hop before the Simple pipeline "
                                           "runs full, as calibrate fits it (default: half of NCCL's 128 KiB "
                                           "chunk)")
    nccl_ll128_efficiency: float | None = F(None, lo=0.0, lo_open=True, hi=1.0,
                                            help="Share of the Simple protocol's bandwidth LL128 reaches, as "
                                                 "calibrate fits it (default: NCCL's tuning.cc, 0.92)")
    nccl_tree_efficiency: float | None = F(None, lo=0.0, lo_open=True, hi=1.0,
                                           help="Share of its in-node and network bandwidth NCCL's tree reaches, "
                                                "as calibrate fits it (default: NCCL's tuning.cc, 0.9)")
    network_cost_per_node_cny: float | None = F(None, unit="CNY", lo=0.0, hi=1e9,
                                                help="Whole fabric per node (NIC, switch share, cables), the "
                                                     "article's pricing; used when economics.network_pricing "
                                                     "= \"per_node\"", label="Network cost per node")


@dataclass(frozen=True)
class Fabric:
    profile_set: str = F("seed", choices=catalog.PROFILE_SETS, help="Which fabric figures: the article's or "
                                                                  "published measurements")
    compare: tuple[str, ...] | None = F(None, help="Fabrics to compare; default: the four built-in ones and "
                                                   "every custom fabric")
    focus: str | None = F(None, help="Fabric whose values the GUI edits")
    custom: tuple[tuple[str, FabricSpec], ...] = field(default=(), metadata=dict(help="[fabric.custom.NAME]"))

    def custom_dict(self) -> dict[str, FabricSpec]:
        return dict(self.custom)

    @property
    def fabrics(self) -> tuple[str, ...]:
        if self.compare:
            return tuple(self.compare)
        extra = tuple(n for n, _ in self.custom if n not in catalog.BUILTIN_FABRICS)
        return catalog.BUILTIN_FABRICS + extra

    @property
    def focus_fabric(self) -> str:
        fabs = self.fabrics
        if self.focus in fabs:
            return self.focus
        return "infiniband" if "infiniband" in fabs else fabs[-1]


@dataclass(frozen=True)
class Reliability:
    """Interruptions and checkpoints (model/reliability.py)."""
    gpu_host_interruptions_per_1m_gpu_hours: float | None = F(
        None, unit="per 10⁶ GPU·h", lo=0.0, hi=1e6, help="Job interruptions caused by GPUs and hosts, per million "
                                                          "GPU-hours; default from the profile set",
        label="GPU/host interruptions")
    restart_min: float | None = F(None, unit="min", lo=0.0, hi=100_000.0,
                                  help="Detect, diagnose and relaunch after an interruption (the checkpoint reload "
                                       "is added); default from the profile set", label="Restart time")
    storage_gb_per_s: float | None = F(None, unit="GB/s", lo=0.001, hi=1e6,
                                       help="Aggregate checkpoint storage bandwidth, write and read; default: the "
                                            "bandwidth per node times the cluster's nodes",
                                       label="Checkpoint storage bandwidth")
    storage_gb_per_s_per_node: float = F(
        0.65, unit="GB/s", lo=0.0, lo_open=True, hi=1e4, label="Checkpoint storage bandwidth per node",
        help="The checkpoint storage a cluster is built with, per node: Llama 3's (Tectonic) sustains 2 TB/s for "
             "a 24,576-GPU cluster of 3,072 nodes, 0.65 GB/s a node (Dubey et al. 2024, §3.3.1)")
    checkpoint_bytes_per_param: float = F(14.0, unit="B", lo=0.0, lo_open=True, hi=64.0,
                                          label="Checkpoint bytes per parameter",
                                          help="Checkpoint bytes per parameter: bf16 weights 2 + fp32 master 4 + "
                                               "Adam moments 8")
    checkpoint_interval_min: float | None = F(None, unit="min", lo=0.0, lo_open=True, hi=1e6,
                                              help="Time between checkpoints; default: Daly's optimum",
                                              label="Checkpoint interval")


@dataclass(frozen=True)
class Topology:
    """Fat-tree sizing (model/topology.py)."""
    oversubscription: float = F(1.0, lo=1.0, hi=16.0, help="Leaf downlinks : uplinks (1 = non-blocking)",
                                label="Oversubscription")
    nic_links_optical: bool = F(True, help="NIC-to-leaf links use optics (false: copper cables, no transceivers)")
    placement: str = F("contiguous", choices=("contiguous", "fragmented"), label="Job placement",
                       help="contiguous: the job's nodes fill whole leaves in rank order (a topology-aware "
                            "scheduler), so a ring crosses a leaf's uplinks once per channel; fragmented: no two "
                            "of its nodes share a leaf (a job scattered over a shared fabric), so all its "
                            "inter-node traffic crosses them")


@dataclass(frozen=True)
class Economics:
    """Capex, power, TCO and money (model/economics.py). Money inputs name their currency."""
    currency: str | None = F(None, choices=("CNY", "USD"), help="Currency of every money output; default: the "
                                                               "profile set's (seed CNY, published USD)",
                             label="Currency")
    cny_per_usd: float = F(7.1, unit="CNY/USD", lo=0.01, hi=1000.0,
                           help="Exchange rate; edit to today's", label="CNY per USD")
    years: float = F(5.0, unit="years", lo=0.1, hi=30.0, help="Years of service for the TCO", label="Years")
    electricity_cny_per_kwh: float | None = F(None, unit="CNY/kWh", lo=0.0, hi=100.0,
                                              help="Electricity price in CNY (give this or the USD one); default "
                                                   "from the profile set", label="Electricity (CNY)")
    electricity_usd_per_kwh: float | None = F(None, unit="USD/kWh", lo=0.0, hi=10.0,
                                              help="Electricity price in USD (give this or the CNY one)",
                                              label="Electricity (USD)")
    pue: float | None = F(None, lo=1.0, hi=4.0, help="Power usage effectiveness; default from the profile set",
                          label="PUE")
    duty_cycle: float = F(1.0, lo=0.01, hi=1.0, help="Share of the year the cluster trains; idle otherwise "
                                                      "(at least 1 %: a run's share of the TCO divides by it)",
                          label="Duty cycle")
    gpu_idle_power_fraction: float = F(0.3, lo=0.0, hi=1.0,
                                       label="GPU idle power share",
                                       help="GPU power while not computing (waiting on the network, or idle), as a "
                                            "share of board power (guess)")
    server_price_usd: float | None = F(None, unit="USD", lo=0.0, hi=1e8,
                                       help="Price of one node without its fabric NICs; default from the GPU "
                                            "catalogue", label="Server price")
    network_pricing: str | None = F(None, choices=("per_node", "components"),
                                    help="per_node: the fabric's network cost per node (the article's way); "
                                         "components: NICs, switches and links; default from the profile set")
    operations_usd_per_node_year: float = F(0.0, unit="USD", lo=0.0, hi=1e7,
                                            label="Operations per node-year",
                                            help="Operations staff and support per node and year")
    run_cost_basis: str = F("tco_share", choices=("tco_share", "gpu_hour"),
                            help="Cost of a run: its share of the TCO by time, or GPU-hours at a cloud price")
    gpu_hour_usd: float | None = F(None, unit="USD", lo=0.0, hi=1000.0,
                                   label="GPU-hour price", help="Price of one GPU-hour; default from the GPU catalogue")


@dataclass(frozen=True)
class Goals:
    """What the buyer wants: inputs of the article's decision tree and of the engine's recommendation."""
    deadline_days: float | None = F(None, unit="days", lo=0.0, lo_open=True, hi=100_000.0,
                                    help="A run must finish within this (with interruptions)", label="Deadline")
    budget_cny: float | None = F(None, unit="CNY", lo=0.0, hi=1e13, help="TCO budget in CNY (or give budget_usd)")
    budget_usd: float | None = F(None, unit="USD", lo=0.0, hi=1e12, help="TCO budget in USD (or give budget_cny)")
    budget_stance: str = F("long_term", choices=("limited", "long_term"),
                           help="limited: tight initial budget; long_term: stability and lower TCO")
    existing_ethernet: bool = F(True, help="A good Ethernet network is already in place")
    operations_team: str = F("professional", choices=("weak", "professional"),
                             help="Operations maturity of the team that will run the fabric")


@dataclass(frozen=True)
class PriceBook:
    """The commercial terms on top of the component prices (which are per fabric, [fabric.custom.NAME]
    ``*_price_usd``): a discount on the bill of materials and support as a share of capex per year."""
    discount: float = F(0.0, lo=0.0, hi=0.95, label="Discount",
                        help="Discount on the whole bill of materials (servers and network), as a fraction")
    support_fraction: float = F(0.0, lo=0.0, hi=0.5, label="Support per year",
                                help="Support and maintenance per year, as a fraction of the discounted capex")


SECTIONS: dict[str, type] = {"cluster": Cluster, "workload": Workload, "parallel": Parallel, "fabric": Fabric,
                             "reliability": Reliability, "topology": Topology, "economics": Economics,
                             "price_book": PriceBook, "goals": Goals}
