"""Transports: loss recovery and host CPU cost, per transport kind.

The inter-node bandwidth a fabric really reaches is

``B = min(line rate · achievable fraction · loss efficiency · congestion factor, CPU cap)``

- **achievable fraction**: nccl-tests bus bandwidth over line rate for the
  transport (profile data with its source).
- **congestion factor**: :mod:`model.topology` (oversubscription, ECMP).
- **loss efficiency** (this module): the fraction of time a collective moves
  data rather than waits for a recovery. NCCL moves a collective through a
  fixed buffer per connection (``NCCL_BUFFSIZE`` = 4 MiB, NCCL environment
  documentation); no link can run more than that buffer ahead of the slowest
  one, so a ring (or tree) of ``K`` links advances at the pace of its slowest
  link, buffer by buffer. Per buffer of ``n`` packets the slowest of ``K``
  links pays ``c · E[max of K Poisson(n·p)]`` for recovery events of cost ``c``
  (:func:`expected_max_events`), so the loss cost grows with the links a
  collective waits on.

  ``tcp``        Padhye et al. 1998, per flow: the congestion window limits one
                 flow to one packet per ``RTT·√(2bp/3)``; a loss that the flow
                 cannot repair by fast retransmit (a fraction
                 ``Q = min(1, 3·√(3bp/8))``) costs a retransmission timeout
                 ``T0·(1+p+2p²+4p³+8p⁴+16p⁵+32p⁶)`` (exponential back-off),
                 ``T0 = RTT + min RTO`` (Linux: the variance term is floored at
                 ``TCP_RTO_MIN`` = 200 ms, configurable per route). NCCL's socket
                 transport splits each buffer over its sockets and goes at the
                 slowest socket × the number of sockets (NVIDIA maintainer,
                 nccl-tests issue 83): ``K`` = links × flows. One timeout stalls the
                 whole collective: the incast collapse of barrier-synchronised
                 traffic (Vasudevan et al., SIGCOMM 2009).
  ``iwarp``      the same TCP, offloaded to the NIC (RFC 5040-5044): same loss
                 behaviour, no host CPU per byte.
  ``roce``       RC transport. ``go_back_n`` (RoCEv2 before ConnectX-6 Dx): a loss
                 makes the receiver NAK the next packet and the sender resend
                 everything after it: each loss costs one loaded round trip
                 (queueing included) plus the resent packet,
                 ``η = 1/(1 + p·(m+1))`` on one link with ``m`` the round trip in
                 packets (IEEE Trans. Commun. 36(2):231, 1988); a lost last packet
                 of a collective has no successor to trigger the NAK and waits for
                 a retransmission timeout: the verbs ACK timeout
                 ``4.096 µs · 2^NCCL_IB_TIMEOUT`` (default 20 since NCCL 2.23:
                 4.3 s) unless NVIDIA ConnectX adaptive retransmission (on by
                 default, firmware floor 4 µs; NVIDIA "Adaptive Retransmission:
                 Parameters Control", 2025) shortens it; its working value is not
                 published: 1 ms (guess, the fabric's ``min_rto_ms``). Published go-back-N RoCEv2
                 degrades from ~1e-3 and falls to nearly nothing above 1 % (Mittal
                 et al., "Revisiting Network Support for RDMA", SIGCOMM 2018).
                 ``selective_repeat`` (IRN; ConnectX-6 Dx and later): only the lost
                 packet is resent, a tail loss waits IRN's ``RTO_low`` = 100 µs.
                 ``link_retry``: the link resends a corrupted packet itself, one
                 link round trip (~1 µs) per loss and no end-to-end recovery; an
                 explicit option only (vendor feature of some NVIDIA ports for
                 marginal links, MLNX-OS user manual; Ultra Ethernet
                 Specification 1.0, 2025, link-level retry).
  ``infiniband`` the same RC recovery at InfiniBand's own loss rate (InfiniBand
                 Architecture Specification vol. 1 ch. 9: credit flow control
                 removes congestion drops, not corruption); its round trip follows
                 the fabric latency like every other transport.

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
2. J. Padhye, V. Firoiu, D. Towsley, J. Kurose, "Modeling TCP throughput: a
   simple model and its empirical validation", SIGCOMM 1998 (eq. 30/33).
3. Go-back-N ARQ efficiency: IEEE Trans. Commun. 36(2):231, 1988; R. Mittal et
   al., "Revisiting Network Support for RDMA", SIGCOMM 2018 (IRN, RTO_low
   100 µs); Wang et al., ICCCN 2019.
4. Q. Cai et al., "Understanding host network stack overheads", SIGCOMM 2021.
5. InfiniBand Architecture Specification, Vol. 1 ch. 9 (RC transport), Vol. 2.
6. V. Vasudevan et al., "Safe and effective fine-grained TCP retransmissions
   for datacenter communication", SIGCOMM 2009 (200 ms min RTO and incast).
7. NVIDIA NCCL environment variables (NCCL_BUFFSIZE, NCCL_IB_TIMEOUT,
   NCCL_IB_QPS_PER_CONNECTION); NVIDIA/nccl-tests issue 83 (socket transport).
"""

from __future__ import annotations

import numpy as np

from .collectives import NCCL_BUFFSIZE_BYTES  # NCCL_BUFFSIZE default: what one connection may have in flight

TRANSPORTS = ("tcp", "roce", "iwarp", "infiniband")
TRANSPORT_CODE = {name: i for i, name in enumerate(TRANSPORTS)}
LOSS_RECOVERIES = ("go_back_n", "selective_repeat", "link_retry")
LOSS_RECOVERY_CODE = {name: i for i, name in enumerate(LOSS_RECOVERIES)}
RDMA_TRANSPORTS = ("roce", "infiniband")

MATHIS_C = np.sqrt(1.5)
PADHYE_B = 1.0  # packets acknowledged per ACK: Linux quick-acks bulk receivers (b = 2 with delayed ACKs is slower)
LINUX_MIN_RTO_MS = 200.0  # TCP_RTO_MIN, include/net/tcp.h; `ip route ... rto_min` changes it per route
NCCL_IB_TIMEOUT = 20  # NCCL env docs: default 20 since NCCL 2.23 (18 before)
VERBS_ACK_TIMEOUT_MS = 4.096e-3 * 2**NCCL_IB_TIMEOUT  # IBTA local ACK timeout 4.096 µs · 2^timeout = 4.3 s
RDMA_TAIL_TIMEOUT_MS = 1.0  # working value of ConnectX adaptive retransmission (floor 4 µs): not published (guess)
IRN_RTO_LOW_S = 100e-6  # Mittal et al. 2018 §3: RTO_low for few packets in flight
LINK_RETRY_RTT_US = 1.0  # cable + one switch port, both ways; switch ASIC 100-300 ns (WWT)


def mathis_flow_gbps(mss_bytes, rtt_us, loss_rate):
    """Throughput bound of one TCP flow by the Mathis formula [Gb/s].

    ``(MSS·8/RTT) · C/√p``; infinite when ``p = 0`` or ``RTT = 0`` (then the
    link, not TCP, is the limit). An upper bound: no timeouts (see :func:`padhye_flow_gbps`).
    """
    mss = np.asarray(mss_bytes, dtype=float)
    rtt_s = np.asarray(rtt_us, dtype=float) * 1e-6
    p = np.asarray(loss_rate, dtype=float)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        rate = mss * 8.0 / rtt_s * MATHIS_C / np.sqrt(np.where(p > 0, p, 1.0)) / 1e9
    return np.where((p > 0) & (rtt_s > 0), rate, np.inf)


def _padhye_terms(rtt_s, loss_rate, min_rto_ms):
    """Padhye's per-packet window time [s], timeout fraction of losses Q [-] and cost of one timeout [s]."""
    p = np.asarray(loss_rate, dtype=float)
    rtt_s = np.asarray(rtt_s, dtype=float)
    window_s = rtt_s * np.sqrt(2.0 * PADHYE_B * p / 3.0)
    q = np.minimum(1.0, 3.0 * np.sqrt(3.0 * PADHYE_B * p / 8.0))
    backoff = 1.0 + p + 2 * p**2 + 4 * p**3 + 8 * p**4 + 16 * p**5 + 32 * p**6
    t0 = rtt_s + np.asarray(min_rto_ms, dtype=float) * 1e-3
    return window_s, q, t0 * backoff


def padhye_flow_gbps(mss_bytes, rtt_us, loss_rate, min_rto_ms=LINUX_MIN_RTO_MS):
    """Mean throughput of one TCP flow with retransmission timeouts (Padhye et al. 1998) [Gb/s].

    ``MSS·8 / (RTT·√(2bp/3) + T0·Q·p·f(p))`` (the receiver window not limiting);
    infinite without loss. Reference: 400 Gb/s Ethernet, MSS 8960 B, RTT 100 µs,
    p = 1e-3, min RTO 200 ms: ~5 Gb/s per flow, 16 flows ≈ 20 % of the link.
    """
    window_s, q, timeout_s = _padhye_terms(np.asarray(rtt_us, dtype=float) * 1e-6, loss_rate, min_rto_ms)
    p = np.asarray(loss_rate, dtype=float)
    per_packet_s = window_s + timeout_s * q * p
    with np.errstate(divide="ignore"):
        return np.where(p > 0, np.asarray(mss_bytes, dtype=float) * 8.0 / per_packet_s / 1e9, np.inf)


def go_back_n_efficiency(link_gbps, packet_bytes, rtt_us, loss_rate):
    """Go-back-N efficiency of one link ``Pₛ/(Pₛ + m(1−Pₛ))`` with ``m = RTT·rate/packet`` [-].

    Checks from the reference (400 Gb/s, 4 KB, RTT 10 µs, m ≈ 122):
    η ≈ 0.99 / 0.89 / 0.45 at loss 1e-4 / 1e-3 / 1e-2. No tail loss, one link:
    :func:`loss_efficiency` adds both.
    """
    p = np.asarray(loss_rate, dtype=float)
    m = np.asarray(rtt_us, dtype=float) * 1e-6 * np.asarray(link_gbps, dtype=float) * 1e9 / (
        np.asarray(packet_bytes, dtype=float) * 8.0)
    ps = 1.0 - p
    return ps / (ps + np.maximum(m, 1.0) * p)


def expected_max_events(mean_events, links):
    """Expected largest number of events on any of ``K`` links, each Poisson with mean ``λ`` [-].

    ``max(λ + √(2λ·ln K), 1 − e^(−Kλ))``: the Gaussian tail bound on the
    maximum of ``K`` variables of variance ``λ`` (Boucheron, Lugosi, Massart,
    *Concentration Inequalities*, 2013, §2.5) where events are common, and the
    chance that any link has one where they are rare. Exactly ``λ`` for one link;
    grows with ``K``.
    """
    lam = np.asarray(mean_events, dtype=float)
    k = np.maximum(np.asarray(links, dtype=float), 1.0)
    return np.maximum(lam + np.sqrt(2.0 * lam * np.log(k)), -np.expm1(-k * lam))


def tcp_efficiency(link_gbps, mss_bytes, rtt_us, loss_rate, flows, min_rto_ms=LINUX_MIN_RTO_MS, links=1.0):
    """Fraction of the link NCCL's sockets keep busy under loss: the slowest of ``links × flows`` flows [-].

    Each buffer (:data:`NCCL_BUFFSIZE_BYTES`) is split over the ``flows`` sockets of
    a link; a socket sends its share at the larger of its link share and Padhye's
    window time per packet, plus the timeouts of the slowest socket of the
    collective. Proportional to 1/√p where the window binds, falling off a cliff
    where timeouts start to hit every buffer.
    """
    flows = np.maximum(np.asarray(flows, dtype=float), 1.0)
    mss = np.asarray(mss_bytes, dtype=float)
    p = np.asarray(loss_rate, dtype=float)
    rtt_s = np.asarray(rtt_us, dtype=float) * 1e-6
    t_pkt = mss * 8.0 * flows / (np.asarray(link_gbps, dtype=float) * 1e9)  # one socket's packet at its share
    n = NCCL_BUFFSIZE_BYTES / (flows * mss)  # packets per socket per buffer
    window_s, q, timeout_s = _padhye_terms(rtt_s, p, min_rto_ms)
    busy = n * np.maximum(t_pkt, window_s) + timeout_s * expected_max_events(n * p * q, links * flows)
    return n * t_pkt / busy


def rdma_efficiency(link_gbps, packet_bytes, rtt_us, loss_rate, recovery_code, links=1.0, message_bytes=np.inf,
                    tail_timeout_ms=RDMA_TAIL_TIMEOUT_MS):
    """Fraction of the link an RC connection keeps busy under loss, slowest of ``links`` links [-].

    ``recovery_code`` from :data:`LOSS_RECOVERY_CODE`. Per buffer of ``n`` packets:
    ``n·t_pkt + c·E[max events] + T_tail·P(some link loses a collective's last packet)·buffer/message``
    with ``c`` one loaded round trip plus the resent packet (go-back-N), one
    packet (selective repeat) or one link round trip (link retry, no tail
    timeout). ``message_bytes``: what one link carries per collective; ``tail_timeout_ms``:
    the go-back-N tail-loss timeout (:data:`RDMA_TAIL_TIMEOUT_MS`; the verbs ACK
    timeout :data:`VERBS_ACK_TIMEOUT_MS` without adaptive retransmission).
    """
    p = np.asarray(loss_rate, dtype=float)
    code = np.asarray(recovery_code)
    t_pkt = np.asarray(packet_bytes, dtype=float) * 8.0 / (np.asarray(link_gbps, dtype=float) * 1e9)
    rtt_s = np.asarray(rtt_us, dtype=float) * 1e-6
    n = NCCL_BUFFSIZE_BYTES / np.asarray(packet_bytes, dtype=float)
    gbn, sr = LOSS_RECOVERY_CODE["go_back_n"], LOSS_RECOVERY_CODE["selective_repeat"]
    cost = np.where(code == gbn, rtt_s + t_pkt, np.where(code == sr, t_pkt, LINK_RETRY_RTT_US * 1e-6 + t_pkt))
    tail = np.where(code == gbn, np.asarray(tail_timeout_ms, dtype=float) * 1e-3,
                    np.where(code == sr, IRN_RTO_LOW_S, 0.0))
    k = np.maximum(np.asarray(links, dtype=float), 1.0)
    share = np.minimum(1.0, NCCL_BUFFSIZE_BYTES / np.asarray(message_bytes, dtype=float))
    busy = n * t_pkt + cost * expected_max_events(n * p, k) + tail * -np.expm1(-k * p) * share
    return n * t_pkt / busy


def loss_efficiency(transport_code, recovery_code, link_gbps, rtt_us, loss_rate, mss_bytes, mtu_bytes, flows,
                    min_rto_ms=LINUX_MIN_RTO_MS, links=1.0, message_bytes=np.inf):
    """Loss-recovery efficiency for any mix of transports (by code) [-].

    ``rtt_us`` is the loaded round trip; ``links`` the links a collective waits
    on (flows are added for TCP); ``message_bytes`` what one link carries per
    collective; ``min_rto_ms`` TCP's minimum RTO, or the RDMA go-back-N tail-loss
    timeout. A transport code outside :data:`TRANSPORT_CODE` gives NaN.
    """
    code = np.asarray(transport_code)
    args = [np.asarray(a, dtype=float) for a in (link_gbps, rtt_us, loss_rate, mss_bytes, mtu_bytes, flows,
                                                  min_rto_ms, links, message_bytes)]
    rec = np.asarray(recovery_code)
    n_rows = code.shape[0] if code.ndim else 0
    flat = code.reshape(n_rows, -1) if n_rows else None
    if n_rows and np.all(flat == flat[:, :1]):
        # one transport per fabric row (the engine's layout): each formula only on its own rows
        # (a handful of rows: plain Python finds them faster than np.isin)
        shape = np.broadcast(code, rec, *args).shape
        out = np.full(shape, np.nan)  # a row whose code no kind lists stays NaN
        row_codes = flat[:, 0].tolist()
        for kind, formula in _BY_KIND:
            rows = np.array([i for i, c in enumerate(row_codes) if c in kind], dtype=np.intp)
            if rows.size:
                sub = [a.take(rows, axis=0) if a.ndim == len(shape) and a.shape[0] == n_rows else a
                       for a in [rec, *args]]
                out[rows] = formula(*sub)
        return out
    # any mix of transports: every formula everywhere, each kept where the code is its kind's
    return np.select([np.isin(code, kind) for kind, _ in _BY_KIND], [formula(rec, *args) for _, formula in _BY_KIND],
                     np.nan)


# transport codes -> loss-efficiency formula of (recovery, link, rtt, loss, mss, mtu, flows, min_rto, links,
# message); the one place that maps them
_BY_KIND = (
    ((TRANSPORT_CODE["tcp"], TRANSPORT_CODE["iwarp"]),
     lambda rec, link, rtt, loss, mss, mtu, fl, rto, k, msg: tcp_efficiency(link, mss, rtt, loss, fl, rto, k)),
    ((TRANSPORT_CODE["roce"], TRANSPORT_CODE["infiniband"]),
     lambda rec, link, rtt, loss, mss, mtu, fl, rto, k, msg: rdma_efficiency(link, mtu, rtt, loss, rec, k, msg, rto)),
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
