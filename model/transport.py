"""Transports: loss recovery and host CPU cost, per transport kind.

The inter-node bandwidth a fabric really reaches is

``B = min(line rate · achievable fraction · loss efficiency, CPU cap)``

- **achievable fraction**: nccl-tests bus bandwidth over line rate for the
  transport (profile data with its source).
- **loss efficiency** (this module), by transport:

  ``tcp``        Mathis et al. 1997: one flow reaches ``(MSS/RTT)·C/√p`` with
                 C = √(3/2) ≈ 1.22; NCCL's socket transport runs several flows per
                 NIC in parallel, capped at the link. The formula ignores
                 retransmission timeouts (Padhye et al. 1998), so it is an upper
                 bound: kind to TCP, never to the RDMA fabrics.
  ``iwarp``      the same TCP, offloaded to the NIC (RFC 5040-5044): same loss
                 behaviour, no host CPU per byte.
  ``roce``       go-back-N (RoCEv2 RC transport without selective repeat): one
                 loss resends the window in flight, ``η = Pₛ/(Pₛ + m(1−Pₛ))``
                 with ``m`` the round trip in packets (IEEE Trans.
                 Commun. 36(2):231, 1988). Measured RoCEv2 is worse
                 than this ideal (Wang et al., ICCCN 2019).
  ``infiniband`` lossless link layer with credit flow control; a corrupted
                 packet is retried on its link only: ``η = 1/(1 + p·m_link)`` with
                 the link's round trip (~1 µs) in packets.

- **CPU cap**: kernel TCP spends host CPU per byte (Cai et al., SIGCOMM 2021:
  one core moves at most ~42 Gb/s even with TSO/GRO and jumbo frames; the
  receiver's copy is the bottleneck). The cores a node can spare for the network
  times the Gb/s one core moves caps what the node's NICs can carry. RDMA
  transports (RoCE, iWARP, InfiniBand) move data without the host CPU; their
  profiles give ``cpu_gbps_per_core = inf`` unless a profile (the article's)
  states otherwise.

References
----------
1. M. Mathis, J. Semke, J. Mahdavi, T. Ott, "The macroscopic behavior of the
   TCP congestion avoidance algorithm", CCR 27(3), 1997.
2. J. Padhye, V. Firoiu, D. Towsley, J. Kurose, "Modeling TCP throughput",
   SIGCOMM 1998.
3. Go-back-N ARQ efficiency: IEEE Trans. Commun. 36(2):231, 1988; RoCEv2
   measurements: Wang et al., ICCCN 2019; IRN: Mittal et al., SIGCOMM 2018.
4. Q. Cai et al., "Understanding host network stack overheads", SIGCOMM 2021.
5. InfiniBand Architecture Specification, Vol. 2 (link-level flow control).
"""

from __future__ import annotations

import numpy as np

TRANSPORTS = ("tcp", "roce", "iwarp", "infiniband")
TRANSPORT_CODE = {name: i for i, name in enumerate(TRANSPORTS)}

MATHIS_C = np.sqrt(1.5)
IB_LINK_RTT_US = 1.0  # cable + one switch hop, both ways; switch ASIC 100-300 ns (WWT)


def mathis_flow_gbps(mss_bytes, rtt_us, loss_rate):
    """Throughput bound of one TCP flow by the Mathis formula [Gb/s].

    ``(MSS·8/RTT) · C/√p``; infinite when ``p = 0`` or ``RTT = 0`` (then the
    link, not TCP, is the limit).
    """
    mss = np.asarray(mss_bytes, dtype=float)
    rtt_s = np.asarray(rtt_us, dtype=float) * 1e-6
    p = np.asarray(loss_rate, dtype=float)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        rate = mss * 8.0 / rtt_s * MATHIS_C / np.sqrt(np.where(p > 0, p, 1.0)) / 1e9
    return np.where((p > 0) & (rtt_s > 0), rate, np.inf)


def tcp_efficiency(link_gbps, mss_bytes, rtt_us, loss_rate, flows):
    """Fraction of the link parallel TCP flows keep busy under loss [-]: ``min(1, flows·mathis/link)``."""
    return np.minimum(1.0, np.asarray(flows, dtype=float) * mathis_flow_gbps(mss_bytes, rtt_us, loss_rate)
                      / np.asarray(link_gbps, dtype=float))


def go_back_n_efficiency(link_gbps, packet_bytes, rtt_us, loss_rate):
    """Go-back-N efficiency ``Pₛ/(Pₛ + m(1−Pₛ))`` with ``m = RTT·rate/packet`` [-].

    Checks from the reference (400 Gb/s, 4 KB, RTT 10 µs, m ≈ 122):
    η ≈ 0.99 / 0.89 / 0.45 at loss 1e-4 / 1e-3 / 1e-2.
    """
    p = np.asarray(loss_rate, dtype=float)
    m = np.asarray(rtt_us, dtype=float) * 1e-6 * np.asarray(link_gbps, dtype=float) * 1e9 / (
        np.asarray(packet_bytes, dtype=float) * 8.0)
    ps = 1.0 - p
    return ps / (ps + np.maximum(m, 1.0) * p)


def link_retry_efficiency(link_gbps, packet_bytes, loss_rate, link_rtt_us=IB_LINK_RTT_US):
    """InfiniBand link-level retry: each corrupted packet costs one link round trip [-]."""
    m = link_rtt_us * 1e-6 * np.asarray(link_gbps, dtype=float) * 1e9 / (np.asarray(packet_bytes, dtype=float) * 8.0)
    return 1.0 / (1.0 + np.asarray(loss_rate, dtype=float) * np.maximum(m, 1.0))


def loss_efficiency(transport_code, link_gbps, latency_us, loss_rate, mss_bytes, mtu_bytes, flows):
    """Loss-recovery efficiency for any mix of transports (by code) [-].

    RTT is taken as twice the one-way latency ``latency_us``; a code outside :data:`TRANSPORT_CODE` gives NaN.
    """
    code = np.asarray(transport_code)
    rtt = 2.0 * np.asarray(latency_us, dtype=float)
    args = [np.asarray(a, dtype=float) for a in (link_gbps, rtt, loss_rate, mss_bytes, mtu_bytes, flows)]
    n_rows = code.shape[0] if code.ndim else 0
    flat = code.reshape(n_rows, -1) if n_rows else None
    if n_rows and np.all(flat == flat[:, :1]):
        # one transport per fabric row (the engine's layout): each formula only on its own rows
        # (a handful of rows: plain Python finds them faster than np.isin)
        shape = np.broadcast(code, *args).shape
        out = np.full(shape, np.nan)  # a row whose code no kind lists stays NaN
        row_codes = flat[:, 0].tolist()
        for kind, formula in _BY_KIND:
            rows = [i for i, c in enumerate(row_codes) if c in kind]
            if rows:
                sub = [a[rows] if a.ndim == len(shape) and a.shape[0] == n_rows else a for a in args]
                out[rows] = formula(*sub)
        return out
    # any mix of transports: every formula everywhere, each kept where the code is its kind's
    return np.select([np.isin(code, kind) for kind, _ in _BY_KIND], [formula(*args) for _, formula in _BY_KIND],
                     np.nan)


# transport codes -> loss-efficiency formula of (link, rtt, loss, mss, mtu, flows); the one place that maps them
_BY_KIND = (
    ((TRANSPORT_CODE["tcp"], TRANSPORT_CODE["iwarp"]),
     lambda link, rtt, loss, mss, mtu, fl: tcp_efficiency(link, mss, rtt, loss, fl)),
    ((TRANSPORT_CODE["roce"],), lambda link, rtt, loss, mss, mtu, fl: go_back_n_efficiency(link, mtu, rtt, loss)),
    ((TRANSPORT_CODE["infiniband"],), lambda link, rtt, loss, mss, mtu, fl: link_retry_efficiency(link, mtu, loss)),
)
if sorted(c for kind, _ in _BY_KIND for c in kind) != sorted(TRANSPORT_CODE.values()):
    raise RuntimeError("transport._BY_KIND must list every transport code exactly once: "
                       f"{[kind for kind, _ in _BY_KIND]} against {TRANSPORT_CODE}")


def cpu_cap_gbps(host_cores, cpu_fraction_for_network, cpu_gbps_per_core):
    """Node bandwidth the host CPU can drive for this transport [Gb/s]."""
    return np.asarray(host_cores, dtype=float) * np.asarray(cpu_fraction_for_network, dtype=float) * np.asarray(
        cpu_gbps_per_core, dtype=float)


def cpu_cores_busy(node_gbps, cpu_gbps_per_core):
    """Host cores the transport keeps busy while the node moves ``node_gbps`` [cores]."""
    return np.asarray(node_gbps, dtype=float) / np.asarray(cpu_gbps_per_core, dtype=float)
