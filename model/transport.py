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

  ``tcp``        Linux TCP as NCCL's socket transport drives it: each connection (one
                 per channel and peer, :data:`~model.nccl_tuning.CHANNELS_PER_NIC` per
                 NIC) sends every NCCL step (:data:`NCCL_STEP_BYTES`) over its sockets
                 (``sockets_per_connection`` = ``NCCL_SOCKET_NTHREADS`` ×
                 ``NCCL_NSOCKS_PERTHREAD``, ``net_socket.cc``; a task per socket of at
                 least :data:`SOCKET_MIN_CHUNK_BYTES`). Three costs:

                 - **window**: one socket moves at most Mathis et al.'s
                   ``MSS·C/(RTT·√p)`` (with SACK every loss is one window halving, no
                   timeout; Padhye's timeout term describes Reno without SACK);
                 - **mid-stream repair**: SACK + RACK (RFC 8985) mark a segment lost once
                   a later one is acknowledged and the reordering window (min RTT/4)
                   has passed, and resend it: ``RTT·5/4`` on the socket that lost it;
                 - **tail loss**: a lost last segment of a step has no later segment to
                   reveal it. Linux sends a Tail Loss Probe after ``2·SRTT`` plus
                   ``TCP_TIMEOUT_MIN`` (2 ms: ``tcp_schedule_loss_probe``), whose
                   acknowledgement starts the repair (one more round trip); only when the
                   probe is lost too does the retransmission timeout fire, floored at
                   ``min_rto_ms`` (Linux ``TCP_RTO_MIN`` 200 ms, per route
                   ``ip route ... rto_min``). A stall of milliseconds outlasts NCCL's
                   4 MiB of buffering, so it stops the channel's whole ring: the ring's
                   ``hops`` add their stalls, and a collective waits for the slowest of
                   its channels (:func:`expected_max_events`).
  ``iwarp``      the same TCP, offloaded to the NIC (RFC 5040-5044): same loss
                 behaviour, no host CPU per byte; its connections are the verbs queue
                 pairs (``qps_per_connection``), not sockets.
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
  states otherwise. **GPUDirect TCP** (``gpudirect_tcp``: Linux device-memory
  TCP, Google's GPUDirect-TCPX/TCPXO) puts the payload straight between the NIC
  and GPU memory; the host handles headers only, so there is no copy and no
  per-byte CPU cap, and the sockets reach ~96.6 % of line rate
  (:data:`DEVMEM_TCP_LINE_FRACTION`). Its loss recovery is the same Linux TCP.

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
   NCCL_IB_QPS_PER_CONNECTION); NVIDIA/nccl-tests issue 83 (socket transport);
   NVIDIA/nccl ``src/transport/net_socket.cc`` (sockets per connection, task size).
8. Y. Cheng, N. Cardwell, N. Dukkipati, P. Jha, "The RACK-TLP Loss Detection
   Algorithm for TCP", RFC 8985, 2021; Linux ``net/ipv4/tcp_output.c``
   ``tcp_schedule_loss_probe`` (probe timeout 2·SRTT + ``TCP_TIMEOUT_MIN``).
9. M. Almasry, W. de Bruijn, E. Dumazet, K. Zhang, "Device Memory TCP", Netdev
   0x17, 2023 (~96.6 % of line rate to and from GPU memory).
"""

from __future__ import annotations

import functools

import numpy as np

from .arrays import all_true, at_shape
from .nccl_tuning import CHANNELS_PER_NIC  # NCCL channels (connections) per NIC
from .nccl_tuning import NCCL_BUFFSIZE_BYTES  # NCCL_BUFFSIZE default: what one connection may have in flight

TRANSPORTS = ("tcp", "roce", "iwarp", "infiniband")
TRANSPORT_CODE = {name: i for i, name in enumerate(TRANSPORTS)}
LOSS_RECOVERIES = ("go_back_n", "selective_repeat", "link_retry")
LOSS_RECOVERY_CODE = {name: i for i, name in enumerate(LOSS_RECOVERIES)}
RDMA_TRANSPORTS = ("roce", "infiniband")

MATHIS_C = np.sqrt(1.5)
# NCCL's socket transport (NVIDIA/nccl src/transport/net_socket.cc, src/include/device.h)
NCCL_STEPS = 8  # NCCL_STEPS: a connection's buffer holds 8 steps; each network send carries one
NCCL_STEP_BYTES = NCCL_BUFFSIZE_BYTES / NCCL_STEPS  # 512 KiB per send of the Simple protocol
SOCKET_MIN_CHUNK_BYTES = 64.0 * 1024  # net_socket.cc MIN_CHUNKSIZE: a send is split over sockets in tasks ≥ 64 KiB
# NCCL_SOCKET_NTHREADS × NCCL_NSOCKS_PERTHREAD when NCCL detects them (net_socket.cc): 1 × 1 on a generic NIC; the
# same file sets 2 × 8 on AWS ENA and 4 × 1 on Google gVNIC, and caps the product at 64 (MAX_SOCKETS)
NCCL_DEFAULT_SOCKETS_PER_CONNECTION = 1
NCCL_MAX_SOCKETS_PER_CONNECTION = 64
# Linux recovery (RFC 8985; net/ipv4/tcp_output.c, include/net/tcp.h)
RACK_REO_WND_RTTS = 0.25  # RFC 8985 §6.2: the reordering window starts at min_RTT/4
TLP_PTO_RTTS = 2.0  # RFC 8985 §7.2: the probe timeout is 2·SRTT
LINUX_TLP_FLOOR_MS = 2.0  # tcp_schedule_loss_probe adds TCP_TIMEOUT_MIN, 2 jiffies: 2 ms at HZ = 1000 (8 at HZ = 250)
# Device-memory TCP (Almasry et al., Netdev 0x17, 2023): ~96.6 % of line rate with payloads to and from GPU memory
DEVMEM_TCP_LINE_FRACTION = 0.966
# what a GPUDirect TCP fabric takes unless its scenario sets them: (value, source shown to the user)
GPUDIRECT_TCP_VALUES = {
    "achievable_fraction": (DEVMEM_TCP_LINE_FRACTION, "Device Memory TCP (Almasry et al., Netdev 0x17, 2023): "
                                                      "~96.6 % of line rate to and from GPU memory"),
    "cpu_gbps_per_core": (np.inf, "GPUDirect TCP: the payload bypasses host memory, no CPU per byte"),
}
LINUX_MIN_RTO_MS = 200.0  # TCP_RTO_MIN, include/net/tcp.h; `ip route ... rto_min` changes it per route
NCCL_IB_TIMEOUT = 20  # NCCL env docs: default 20 since NCCL 2.23 (18 before)
VERBS_ACK_TIMEOUT_MS = 4.096e-3 * 2**NCCL_IB_TIMEOUT  # IBTA local ACK timeout 4.096 µs · 2^timeout = 4.3 s
RDMA_TAIL_TIMEOUT_MS = 1.0  # working value of ConnectX adaptive retransmission (floor 4 µs): not published (guess)
IRN_RTO_LOW_S = 100e-6  # Mittal et al. 2018 §3: RTO_low for few packets in flight
LINK_RETRY_RTT_US = 1.0  # cable + one switch port, both ways; switch ASIC 100-300 ns (WWT)


def mathis_flow_gbps(mss_bytes, rtt_us, loss_rate):
    """Throughput bound of one TCP flow by the Mathis formula [Gb/s].

    ``(MSS·8/RTT) · C/√p``; infinite when ``p = 0`` or ``RTT = 0`` (then the
    link, not TCP, is the limit). With SACK a loss halves the window without a timeout, so this is one
    socket's rate under loss (:func:`tcp_efficiency` adds the repairs and tail stalls).
    """
    mss = np.asarray(mss_bytes, dtype=float)
    rtt_s = np.asarray(rtt_us, dtype=float) * 1e-6
    p = np.asarray(loss_rate, dtype=float)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        rate = mss * 8.0 / rtt_s * MATHIS_C / np.sqrt(np.where(p > 0, p, 1.0)) / 1e9
    return np.where((p > 0) & (rtt_s > 0), rate, np.inf)


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


# expected_max_events: the exact series where events are rare (three terms below a mean of 1e-3: the next is below
# K·λ³/6), a table of the exact series read in log λ and log K up to a mean of 8 and 10⁷ links (bilinear: within
# 1 %), the Gaussian bound above (within ~10 % there)
EXACT_MAX_MEAN = 8.0
_RARE_MEAN = 1e-3
_RARE_TERMS = 3
_TABLE_LOG_MEAN = np.linspace(np.log(_RARE_MEAN), np.log(EXACT_MAX_MEAN), 91)
_TABLE_LOG_LINKS = np.linspace(0.0, np.log(1e7), 65)
_NEGLIGIBLE_EVENTS = 1e-12


def _max_series(lam, k, terms):
    """``Σₘ P(max > m)`` for ``m < terms``, the expected maximum of ``K`` Poisson(``λ``) counts [-]."""
    lam = np.asarray(lam, dtype=float)
    pmf = np.exp(-lam)
    cdf = pmf.copy()
    total = np.zeros(np.broadcast(lam, k).shape)
    with np.errstate(divide="ignore"):  # P(X > m) = 1: log1p(−1) = −inf, a term of 1
        for m in range(terms):
            # 1 − cdf: exact enough (a survival below 1e-16 adds K·1e-16 at most)
            term = -np.expm1(k * np.log1p(-np.maximum(1.0 - cdf, 0.0)))
            total += term
            if term.max() < _NEGLIGIBLE_EVENTS:
                break
            pmf = pmf * lam / (m + 1)
            cdf = cdf + pmf
    return total


@functools.cache
def _max_table():
    """:func:`_max_series` on the grid of :data:`_TABLE_LOG_MEAN` × :data:`_TABLE_LOG_LINKS` (to convergence)."""
    table = _max_series(np.exp(_TABLE_LOG_MEAN)[:, None], np.exp(_TABLE_LOG_LINKS)[None, :], 200)
    table.flags.writeable = False
    return table


def _table_lookup(lam, k):
    """Bilinear reading of :func:`_max_table` at ``λ`` in its range and ``K`` ≤ 10⁷ links."""
    table = _max_table()
    dx, dy = _TABLE_LOG_MEAN[1] - _TABLE_LOG_MEAN[0], _TABLE_LOG_LINKS[1] - _TABLE_LOG_LINKS[0]
    x = (np.log(np.minimum(np.maximum(lam, _RARE_MEAN), EXACT_MAX_MEAN)) - _TABLE_LOG_MEAN[0]) / dx
    y = np.minimum(np.log(k), _TABLE_LOG_LINKS[-1]) / dy
    i = np.minimum(x.astype(np.intp), table.shape[0] - 2)
    j = np.minimum(y.astype(np.intp), table.shape[1] - 2)
    fx, fy = x - i, y - j
    # the four corners read from the flat table (one index array; cheaper than four two-index reads)
    flat, row = table.reshape(-1), table.shape[1]
    at = i * row + j
    return ((flat.take(at) * (1 - fx) + flat.take(at + row) * fx) * (1 - fy)
            + (flat.take(at + 1) * (1 - fx) + flat.take(at + row + 1) * fx) * fy)


def expected_max_events(mean_events, links):
    """Expected largest number of events on any of ``K`` links, each Poisson with mean ``λ`` [-].

    The exact series ``Σₘ 1 − (1 − S(m))^K`` with ``S`` the Poisson survival function (where rare
    events make ``1 − e^(−Kλ)``, the chance that any link has one, and common ones several): summed
    below a mean of 1e-3, read from a table of it up to ``λ`` = :data:`EXACT_MAX_MEAN`; above,
    ``λ + √(2λ·ln K)``, the Gaussian tail bound on the maximum of ``K`` variables of variance ``λ``
    (Boucheron, Lugosi, Massart, *Concentration Inequalities*, 2013, §2.5). Exactly ``λ`` for one
    link; grows with ``K``.
    """
    lam = np.asarray(mean_events, dtype=float)
    k = np.maximum(np.asarray(links, dtype=float), 1.0)
    if all_true(k == 1.0):  # one link: its own mean
        return lam * np.ones(k.shape)
    out = np.asarray(np.maximum(lam + np.sqrt(2.0 * lam * np.log(k)), -np.expm1(-k * lam)))  # a new array
    lam, k = at_shape(lam, out.shape), at_shape(k, out.shape)
    rare = lam < _RARE_MEAN
    if rare.any():
        out[rare] = _max_series(lam[rare], k[rare], _RARE_TERMS)
    mid = ~rare & (lam <= EXACT_MAX_MEAN)
    if mid.any():
        out[mid] = _table_lookup(lam[mid], k[mid])
    return out


def tcp_efficiency(link_gbps, mss_bytes, rtt_us, loss_rate, sockets=NCCL_DEFAULT_SOCKETS_PER_CONNECTION,
                   min_rto_ms=LINUX_MIN_RTO_MS, hops=1.0, message_bytes=np.inf, channels=1.0,
                   channels_per_nic=CHANNELS_PER_NIC):
    """Fraction of the link NCCL's TCP connections keep busy under loss, as Linux recovers [-].

    ``link_gbps``: what the NIC moves without loss; ``sockets``: sockets per connection; ``hops``: the links in
    series in one channel's ring (its nodes); ``channels``: the channels a collective runs side by side (it waits
    for the slowest); ``message_bytes``: what one NIC link carries per collective.

    Per NCCL step of one connection (:data:`NCCL_STEP_BYTES`, split over ``k`` sockets of ``c`` bytes each):

    - time at the link's pace, or at Mathis's window per socket if that is slower;
    - mid-stream repairs: ``RTT·(1 + 1/4)`` for the slowest of the ``k`` sockets' losses (RACK);
    - tail stalls: each socket's last segment is lost with probability ``p``: a probe after
      ``2·SRTT + 2 ms``, the repair's round trip, and ``p·(RTO + RTT)`` when the probe is lost too
      (RTO = ``min_rto_ms`` in a data centre, where ``SRTT + 4·RTTVAR`` is far below it). Every hop of
      the ring adds its stalls, and the collective waits for its slowest channel.

    1 without loss; about ``1/√p`` where the window binds; falls steeply once the ring's
    ``hops × k × p`` tail stalls per step cost more than the step itself.
    """
    p = np.asarray(loss_rate, dtype=float)
    rtt_s = np.asarray(rtt_us, dtype=float) * 1e-6
    mss = np.asarray(mss_bytes, dtype=float)
    s = np.minimum(np.maximum(np.asarray(sockets, dtype=float), 1.0), NCCL_MAX_SOCKETS_PER_CONNECTION)
    chunk = np.maximum(SOCKET_MIN_CHUNK_BYTES, NCCL_STEP_BYTES / s)  # one socket's task per step [B]
    k = np.ceil(NCCL_STEP_BYTES / chunk)  # sockets a step uses
    conn_bytes_per_s = np.asarray(link_gbps, dtype=float) * 1e9 / 8.0 / channels_per_nic
    step_s = NCCL_STEP_BYTES / conn_bytes_per_s
    with np.errstate(divide="ignore"):
        window_s = chunk / (mss * MATHIS_C / (rtt_s * np.sqrt(p)))  # inf rate (0 s) without loss
    packets = chunk / mss
    repair_s = rtt_s * (1.0 + RACK_REO_WND_RTTS) * expected_max_events(packets * p, k)
    stall_s = (TLP_PTO_RTTS * rtt_s + LINUX_TLP_FLOOR_MS * 1e-3 + rtt_s
               + p * (np.asarray(min_rto_ms, dtype=float) * 1e-3 + rtt_s))
    hops = np.maximum(np.asarray(hops, dtype=float), 1.0)
    steps = np.maximum(np.asarray(message_bytes, dtype=float) / channels_per_nic / NCCL_STEP_BYTES, 1.0)
    per_step = hops * k * p  # tail stalls per step of one channel's ring
    with np.errstate(invalid="ignore"):  # no loss in an endless collective: 0 · inf, no stall
        stalls = np.where(per_step > 0, per_step * steps, 0.0)  # per channel and collective
    # the slowest channel's stalls over the mean (1 for an endless collective, where the mean is all)
    counted = (stalls > 0) & np.isfinite(stalls)
    slowest = np.where(counted, expected_max_events(np.where(counted, stalls, 0.0), channels)
                       / np.where(counted, stalls, 1.0), 1.0)
    busy = np.maximum(step_s, window_s) + repair_s + stall_s * per_step * slowest
    return step_s / busy


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


def loss_efficiency(transport_code, recovery_code, link_gbps, rtt_us, loss_rate, mss_bytes, mtu_bytes, sockets,
                    min_rto_ms=LINUX_MIN_RTO_MS, links=1.0, message_bytes=np.inf, nics_per_node=1.0):
    """Loss-recovery efficiency for any mix of transports (by code) [-].

    ``rtt_us`` is the loaded round trip; ``links`` the NIC links a collective waits
    on (nodes × ``nics_per_node``; a TCP channel's ring crosses ``links / nics_per_node`` of
    them); ``sockets`` TCP's sockets per connection (or an iWARP connection's queue pairs);
    ``message_bytes`` what one link carries per collective; ``min_rto_ms`` TCP's minimum
    RTO, or the RDMA go-back-N tail-loss timeout. A transport code outside
    :data:`TRANSPORT_CODE` gives NaN.
    """
    code = np.asarray(transport_code)
    args = [np.asarray(a, dtype=float) for a in (link_gbps, rtt_us, loss_rate, mss_bytes, mtu_bytes, sockets,
                                                  min_rto_ms, links, message_bytes, nics_per_node)]
    rec = np.asarray(recovery_code)
    n_rows = code.shape[0] if code.ndim else 0
    flat = code.reshape(n_rows, -1) if n_rows else None
    if n_rows and all_true(flat == flat[:, :1]):
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


# transport codes -> loss-efficiency formula of (recovery, link, rtt, loss, mss, mtu, sockets, min_rto, links,
# message, nics); the one place that maps them
_BY_KIND = (
    ((TRANSPORT_CODE["tcp"], TRANSPORT_CODE["iwarp"]),
     lambda rec, link, rtt, loss, mss, mtu, so, rto, k, msg, nics: tcp_efficiency(
         link, mss, rtt, loss, so, rto, hops=k / np.maximum(nics, 1.0), message_bytes=msg,
         channels=CHANNELS_PER_NIC * nics)),
    ((TRANSPORT_CODE["roce"], TRANSPORT_CODE["infiniband"]),
     lambda rec, link, rtt, loss, mss, mtu, so, rto, k, msg, nics: rdma_efficiency(link, mtu, rtt, loss, rec, k, msg,
                                                                                  rto)),
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
