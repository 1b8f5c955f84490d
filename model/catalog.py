"""Data in ``assets/``: GPU catalogue, fabric profile sets, fabric styles.

All files are TOML with a ``source`` for every figure; loaded once and cached.
"""

from __future__ import annotations

import functools
import math
import tomllib
from pathlib import Path

from .errors import ScenarioError, suggest

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
PROFILE_SETS = ("seed", "published")
BUILTIN_FABRICS = ("ethernet", "roce", "iwarp", "infiniband")

FABRIC_FIELDS = (
    "transport", "link_gbps", "nics_per_node", "latency_us", "loss_rate", "achievable_fraction",
    "cpu_gbps_per_core", "mss_bytes", "mtu_bytes", "sockets_per_connection", "gpudirect_tcp",
    # reliability, topology and economics
    "net_interruptions_per_1m_node_hours", "switch_radix", "switch_price_usd", "switch_power_w", "nic_price_usd",
    "nic_power_w", "link_price_usd", "optic_power_w", "network_cost_per_node_cny",
    # the price book's per-tier switch and split link prices (model/economics.py); NaN: the leaf's, the link's
    "spine_switch_price_usd", "core_switch_price_usd", "optic_price_usd", "cable_price_usd",
    # loss recovery and congestion (model/transport.py, model/topology.py)
    "loss_recovery", "min_rto_ms", "adaptive_routing", "qps_per_connection",
    "nccl_simple_hop_us",  # calibrated from nccl-tests; NaN: NCCL's own per-hop latencies
    # calibrated from nccl-tests as well (model/nccl_fit.py); NaN: NCCL's own (model/nccl_model.py)
    "nccl_ll128_hop_us", "nccl_ll_hop_us", "nccl_fill_bytes", "nccl_ll128_efficiency", "nccl_tree_efficiency",
    "sharp",  # InfiniBand in-network reduction (NCCL's CollNet), model/nccl_model.py
)
# engine defaults where a profile is silent: Linux's TCP_RTO_MIN 200 ms; go-back-N (RC transport without
# selective repeat); ECMP without adaptive routing; NCCL_IB_QPS_PER_CONNECTION default 1 (NCCL env docs); one socket
# per connection and kernel TCP through host memory (NCCL's net_socket.cc on a generic NIC); no SHARP (NCCL's CollNet
# needs a plugin and the switches' aggregation manager a default cluster does not run)
FABRIC_DEFAULTS = {"mss_bytes": 1460, "mtu_bytes": 4096, "sockets_per_connection": 1, "gpudirect_tcp": False,
                   "network_cost_per_node_cny": math.nan, "loss_recovery": "go_back_n", "min_rto_ms": 200.0,
                   "adaptive_routing": False, "qps_per_connection": 1, "nccl_simple_hop_us": math.nan,
                   "nccl_ll128_hop_us": math.nan, "nccl_ll_hop_us": math.nan, "nccl_fill_bytes": math.nan,
                   "nccl_ll128_efficiency": math.nan, "nccl_tree_efficiency": math.nan, "sharp": False,
                   "spine_switch_price_usd": math.nan, "core_switch_price_usd": math.nan,
                   "optic_price_usd": math.nan, "cable_price_usd": math.nan}


def _read(path: Path) -> dict:
    with open(path, "rb") as fh:
        return tomllib.load(fh)


@functools.cache
def gpus() -> dict:
    """GPU catalogue keyed by id (``A100-SXM-80GB`` ...)."""
    return _read(ASSETS_DIR / "gpus.toml")["gpus"]


def gpu(gpu_id: str) -> dict:
    cat = gpus()
    if gpu_id not in cat:
        raise ScenarioError("cluster.gpu", gpu_id, "one of " + ", ".join(cat) + suggest(gpu_id, cat))
    return cat[gpu_id]


@functools.cache
def profile_set(name: str) -> dict:
    """A fabric profile set (``seed`` or ``published``), as stored."""
    if name not in PROFILE_SETS:
        raise ScenarioError("fabric.profile_set", name, "one of seed, published" + suggest(name, PROFILE_SETS))
    return _derive_cpu(_read(ASSETS_DIR / "profiles" / f"{name}.toml"))


def _derive_cpu(prof: dict) -> dict:
    """Turn a stated "CPU use at line rate" into the mechanism input ``cpu_gbps_per_core``.

    The article states CPU use as a share of the host's cores while the NIC runs
    at its line rate; one core then moves ``link_gbps / (cpu_use · host cores)``.
    A profile that gives ``cpu_gbps_per_core`` directly keeps it.
    """
    cores = prof.get("cpu_ref_host_cores")
    for fab in prof.get("fabrics", {}).values():
        use = fab.get("cpu_use_at_line_rate")
        if "cpu_gbps_per_core" not in fab and use is not None and cores:
            fab["cpu_gbps_per_core"] = math.inf if use <= 0 else fab["link_gbps"] / (use * cores)
    return prof


def profile_site(set_name: str, section: str) -> dict:
    """Site-level defaults of a profile set: its ``[reliability]`` or ``[economics]`` table."""
    return profile_set(set_name).get(section, {})


def transport_profile(set_name: str, transport: str) -> dict:
    """The profile-set fabric whose transport is ``transport`` (for user fabrics)."""
    for fab in profile_set(set_name)["fabrics"].values():
        if fab["transport"] == transport:
            return fab
    raise ScenarioError("transport", transport, "one of tcp, roce, iwarp, infiniband")


@functools.cache
def fabric_styles() -> dict:
    return _read(ASSETS_DIR / "fabrics.toml")


def fabric_style(name: str, index: int = 0) -> dict:
    """Colour, line style and short label of a fabric; user fabrics cycle a spare palette."""
    styles = fabric_styles()
    if name in styles["fabrics"]:
        return dict(styles["fabrics"][name])
    spare = styles["custom"]
    i = index % len(spare["colours"])
    return {"short": name, "colour": spare["colours"][i], "line_style": spare["line_styles"][i], "width_scale": 1.0}


def is_guess(entry: dict, key: str) -> bool:
    """True where an asset entry lists ``key`` as a guess (no published source)."""
    return key in entry.get("guesses", ())


def finite(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
