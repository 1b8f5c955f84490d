"""Capex, power, opex, TCO, cost per run and per token, for every fabric at once.

- **Capex**: GPU servers (catalogue price per node, without the fabric's NICs)
  plus the network: NICs, switches and links with optics from the fat tree
  (``components``), or the profile's whole-network cost per node
  (``per_node``, the article's way of pricing). The price book prices switches per
  tier (leaf, spine, core) and links as cables plus optics where given, takes its
  discount off the whole bill, and adds support as a share of capex per year.
- **Power while training**: GPUs at ``P_board·(f_idle + (1 − f_idle)·u)`` with
  ``u`` the share of the step the GPUs compute (the rest they wait on the
  network), hosts, NICs, switches and transceivers. Outside the duty cycle the
  GPUs draw ``f_idle·P_board``. Times PUE, times the electricity price.
- **TCO** over ``years``: capex + opex per year × years.
- **Cost of one run**: its share of the TCO by wall-clock time
  (``TCO · T_run / (years · 8,760 h · duty)``), or GPU-hours at a cloud price.
  **Cost per token**: cost of a run / tokens trained.

All money is computed in USD and converted to the scenario's currency with
its exchange rate (before the passes over the busy share, so that those run
once); every money output is in ``currency`` (also returned per fabric).

References
----------
1. Power: NVIDIA H100/A100 datasheets (board power), DGX H100 and DGX A100
   user guides (system power), NVIDIA optics specs (8-9 W per 400G OSFP).
2. Prices: "H100 Freakonomics" cost spreadsheet (Aug 2024): switches, links
   with optics, 8 × H100 servers; NVIDIA DGX A100 launch price (2020).
3. Electricity: EIA industrial average 2023; PUE: Uptime Institute surveys.
4. L. A. Barroso, U. Hölzle, P. Ranganathan, "The Datacenter as a Computer",
   3rd ed., 2018, ch. 6 (TCO = capex + opex over the service life).
"""

from __future__ import annotations

import numpy as np

from . import catalog
from .arrays import where_uniform

HOURS_PER_YEAR = 8760.0
CURRENCIES = ("CNY", "USD")
# When a sweep sets one of a pair of money inputs, the other is cleared.
OTHER_CURRENCY_FIELD = {"electricity_cny_per_kwh": "electricity_usd_per_kwh",
                        "electricity_usd_per_kwh": "electricity_cny_per_kwh"}


def _nan_if_none(x):
    return np.nan if x is None else float(x)


def point_inputs(s) -> dict:
    """Scalar inputs of reliability, topology and economics, defaults resolved.

    ``None`` scenario fields take the profile set's ``[reliability]`` /
    ``[economics]`` table or the GPU catalogue. Optional money pairs stay NaN
    where not given; :func:`outputs` resolves them.
    """
    r, t, e = s.reliability, s.topology, s.economics
    prof_r = catalog.profile_site(s.fabric.profile_set, "reliability")
    prof_e = catalog.profile_site(s.fabric.profile_set, "economics")
    g = catalog.gpu(s.cluster.gpu)
    elec_cny, elec_usd = e.electricity_cny_per_kwh, e.electricity_usd_per_kwh
    if elec_cny is None and elec_usd is None:
        elec_cny, elec_usd = prof_e.get("electricity_cny_per_kwh"), prof_e.get("electricity_usd_per_kwh")
    pricing = e.network_pricing or prof_e.get("network_pricing", "components")
    return {
        "gpu_host_interruptions_per_1m_gpu_hours": float(
            r.gpu_host_interruptions_per_1m_gpu_hours if r.gpu_host_interruptions_per_1m_gpu_hours is not None
            else prof_r.get("gpu_host_interruptions_per_1m_gpu_hours", 0.0)),
        "restart_min": float(r.restart_min if r.restart_min is not None else prof_r.get("restart_min", 10.0)),
        "storage_gb_per_s": _nan_if_none(r.storage_gb_per_s),
        "storage_gb_per_s_per_node": float(r.storage_gb_per_s_per_node),
        "checkpoint_bytes_per_param": float(r.checkpoint_bytes_per_param),
        "checkpoint_interval_min": _nan_if_none(r.checkpoint_interval_min),
        "oversubscription": float(t.oversubscription),
        "nic_links_optical": float(t.nic_links_optical),
        "fragmented": float(t.placement == "fragmented"),
        "cny_per_usd": float(e.cny_per_usd),
        "years": float(e.years),
        "electricity_cny_per_kwh": _nan_if_none(elec_cny),
        "electricity_usd_per_kwh": _nan_if_none(elec_usd),
        "pue": float(e.pue if e.pue is not None else prof_e.get("pue", 1.5)),
        "duty_cycle": float(e.duty_cycle),
        "gpu_idle_power_fraction": float(e.gpu_idle_power_fraction),
        "server_price_usd": _nan_if_none(e.server_price_usd),
        "catalog_server_usd_per_gpu": g["server_price_usd"] / g["server_gpus"],
        "host_power_w_per_gpu": g["host_power_w"] / g["server_gpus"],
        "board_power_w": float(g["board_power_w"]),
        "network_per_node_pricing": float(pricing == "per_node"),
        "operations_usd_per_node_year": float(e.operations_usd_per_node_year),
        "run_cost_gpu_hour": float(e.run_cost_basis == "gpu_hour"),
        "gpu_hour_usd": float(e.gpu_hour_usd if e.gpu_hour_usd is not None else g["gpu_hour_usd"]),
        "discount": float(s.price_book.discount),
        "support_fraction": float(s.price_book.support_fraction),
    }


def currency_of(s) -> str:
    """The scenario's money currency: its own choice, else its profile set's."""
    return s.economics.currency or catalog.profile_site(s.fabric.profile_set, "economics").get("currency", "USD")


def server_capex_usd(nodes, price_usd_per_node):
    """GPU servers [USD]."""
    return np.asarray(nodes, dtype=float) * price_usd_per_node


def switches_usd(tree: dict, fab: dict):
    """The fat tree's switches at the price book's price per tier [USD]: leaf switches at ``switch_price_usd``,
    spine and core at theirs where given (NaN: the leaf's)."""
    leaf = fab["switch_price_usd"]
    spine = np.where(np.isfinite(fab["spine_switch_price_usd"]), fab["spine_switch_price_usd"], leaf)
    core = np.where(np.isfinite(fab["core_switch_price_usd"]), fab["core_switch_price_usd"], leaf)
    return tree["leaf"] * leaf + tree["spine"] * spine + tree["core"] * core


def links_usd(links, optics, fab: dict):
    """Links with their optics [USD]: as cables and transceivers where the price book splits them, else at
    ``link_price_usd`` each."""
    split = np.isfinite(fab["cable_price_usd"])
    return np.where(split, links * np.where(split, fab["cable_price_usd"], 0.0)
                    + optics * np.where(split, fab["optic_price_usd"], 0.0), links * fab["link_price_usd"])


def network_capex_per_node_usd(nodes, cost_per_node_cny, cny_per_usd):
    """Network at a whole-fabric price per node given in CNY (the article's pricing) [USD]."""
    return np.asarray(nodes, dtype=float) * (cost_per_node_cny / cny_per_usd)


def gpu_power_w(board_power_w, busy_fraction, idle_fraction):
    """Average power of one GPU [W]: idle share plus the busy share of the rest."""
    return board_power_w * (idle_fraction + (1.0 - idle_fraction) * busy_fraction)


def gpu_dynamic_power_w(board_power_w, idle_fraction):
    """What one GPU draws above idle while it computes [W]: ``gpu_power_w(busy=1) − gpu_power_w(busy=0)``."""
    return board_power_w * (1.0 - idle_fraction)


def energy_kwh_per_year(train_power_w, idle_power_w, duty_cycle, pue):
    """Facility energy in one year [kWh]: training power for the duty cycle, idle otherwise, × PUE."""
    it_w = duty_cycle * train_power_w + (1.0 - duty_cycle) * idle_power_w
    return it_w * pue * HOURS_PER_YEAR / 1000.0


def tco(capex, opex_per_year, years):
    """Total cost of ownership over ``years`` (no discounting) [money]."""
    return capex + opex_per_year * years


def run_share_of_tco(tco_value, run_hours, years, duty_cycle):
    """One run's share of the TCO by the time it occupies the cluster [money]."""
    return tco_value * (run_hours / (years * HOURS_PER_YEAR * duty_cycle))


def outputs(s, pt: dict, fab: dict, out: dict, lean: bool = False) -> dict:
    """Economic results per fabric and point, money in ``currency``.

    Needs the engine's ``breakdown_s`` and ``step_time_s`` and the reliability
    (``train_days_with_interruptions``) and topology outputs in ``out``. Keys: ``capex``,
    ``capex_parts`` (servers, network, at list price: ``capex`` is their sum
    after the price book's discount), ``network_components`` (nics,
    switches per tier, links priced from parts, shown even when the network is priced
    per node), ``power_kw``
    (IT power while training), ``energy_kwh_per_year``, ``opex_per_year`` and
    ``opex_parts`` (energy, operations, support: the price book's share of capex a year), ``tco``, ``cost_per_run``,
    ``energy_cost_per_run``, ``cost_per_token``, ``runs_per_year``,
    ``currency``. ``lean`` returns only ``capex``, ``opex_per_year``, ``tco``,
    ``cost_per_run`` and ``currency`` (Monte-Carlo bands).
    Arrays keep the smallest shape that broadcasts with the inputs': (F, N) at most for a sweep (the
    engine broadcasts results to (F, N)), (F, N, S) at most for Monte-Carlo samples.
    """
    rate = pt["cny_per_usd"]
    k = np.where(currency_of(s) == "CNY", rate, 1.0)  # USD → the output currency
    nodes, gpus, gpn = pt["nodes"], pt["gpus"], pt["gpus_per_node"]
    server_price = np.where(np.isfinite(pt["server_price_usd"]), pt["server_price_usd"],
                            pt["catalog_server_usd_per_gpu"] * gpn)
    servers = server_capex_usd(nodes, server_price)
    switch_usd = switches_usd(out["fat_tree"], fab)
    link_usd = links_usd(out["links"], out["optics"], fab)
    components = out["nics"] * fab["nic_price_usd"] + switch_usd + link_usd

    def per_node_or_components():  # a fabric without a price per node is priced from its parts
        return where_uniform(np.isfinite(fab["network_cost_per_node_cny"]),
                        lambda: network_capex_per_node_usd(nodes, fab["network_cost_per_node_cny"], rate),
                        lambda: components)

    network = where_uniform(pt["network_per_node_pricing"] > 0, per_node_or_components, lambda: components)
    capex_usd = (servers + network) * (1.0 - pt["discount"])  # the price book's discount on the whole bill

    # Power is affine in the share u of the step the GPUs compute: the idle cluster, plus each GPU's power
    # above idle times u. So are energy and opex: their coefficients are computed per fabric and point
    # first, then u (which the network's speed moves, per Monte-Carlo sample too) enters in one pass.
    step = out["step_time_s"]
    busy = np.asarray((out["breakdown_s"]["compute"] + out["breakdown_s"]["optimizer"]) / step)
    np.minimum(np.maximum(busy, 0.0, out=busy), 1.0, out=busy)  # np.clip's values, without its Python-level call
    idle = pt["gpu_idle_power_fraction"]
    host_w = nodes * gpn * pt["host_power_w_per_gpu"]
    net_w = out["nics"] * fab["nic_power_w"] + out["switches"] * fab["switch_power_w"] \
        + out["optics"] * fab["optic_power_w"]
    idle_w = gpus * gpu_power_w(pt["board_power_w"], 0.0, idle) + host_w + net_w
    dynamic_w = gpus * gpu_dynamic_power_w(pt["board_power_w"], idle)
    energy_idle = energy_kwh_per_year(idle_w, idle_w, pt["duty_cycle"], pt["pue"])
    energy_per_busy = energy_kwh_per_year(dynamic_w, 0.0, pt["duty_cycle"], pt["pue"])
    price_kwh = np.where(np.isfinite(pt["electricity_usd_per_kwh"]), pt["electricity_usd_per_kwh"],
                         pt["electricity_cny_per_kwh"] / rate)
    ops_usd = nodes * pt["operations_usd_per_node_year"]
    support_usd = capex_usd * pt["support_fraction"]
    # money over the (fabric, point, sample) cube directly in the output currency
    capex = capex_usd * k
    opex = (energy_idle * price_kwh + ops_usd + support_usd) * k + (energy_per_busy * price_kwh * k) * busy
    total = tco(capex, opex, pt["years"])

    run_h = out["train_days_with_interruptions"] * 24.0
    per_run = where_uniform(pt["run_cost_gpu_hour"] > 0, lambda: (gpus * pt["gpu_hour_usd"] * k) * run_h,
                       lambda: run_share_of_tco(total, run_h, pt["years"], pt["duty_cycle"]))
    currency = np.array(currency_of(s))
    if lean:
        return dict(capex=capex, opex_per_year=opex, tco=total, cost_per_run=per_run, currency=currency)
    train_w = idle_w + dynamic_w * busy
    energy = energy_idle + energy_per_busy * busy
    energy_usd = energy * price_kwh
    res = dict(
        capex=capex, opex_per_year=opex, tco=total, cost_per_run=per_run,
        energy_cost_per_run=train_w / 1000.0 * pt["pue"] * run_h * price_kwh * k,
        cost_per_token=per_run / (pt["train_tokens_b"] * 1e9),
        capex_parts=dict(servers=servers * k, network=network * k),
        network_components=dict(nics=out["nics"] * fab["nic_price_usd"] * k, switches=switch_usd * k,
                                 links=link_usd * k),
        opex_parts=dict(energy=energy_usd * k, operations=ops_usd * k, support=support_usd * k),
        power_kw=train_w / 1000.0,
        energy_kwh_per_year=energy,
        runs_per_year=pt["duty_cycle"] * HOURS_PER_YEAR / run_h,
        currency=currency,
    )
    return res
