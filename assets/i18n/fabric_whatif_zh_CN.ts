<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Acceptance</name>
    <message>
        <source>Acceptance</source>
        <translation>验收</translation>
    </message>
    <message>
        <source>Acceptance: the bus bandwidth {fabric} must reach</source>
        <translation>验收：{fabric} 必须达到的总线带宽</translation>
    </message>
    <message>
        <source>Run nccl-tests (all_reduce_perf, all_gather_perf) on the delivered cluster: it passes where every busbw reaches the minimum. Minimum = expected × (1 − tolerance); GB/s as nccl-tests prints busbw; {gpus} GPUs per node.</source>
        <translation>在交付的集群上运行 nccl-tests（all_reduce_perf、all_gather_perf）：每个 busbw 都达到最低值即为通过。最低值 = 预期值 × (1 − 容差)；单位为 GB/s，与 nccl-tests 输出的 busbw 相同；每节点 {gpus} 个 GPU。</translation>
    </message>
    <message>
        <source>Tolerance: the largest shortfall below the engine of the real inter-node nccl-tests logs it is validated on, per message size: {bands}. Calibrate the fabric from your own log (fabric-whatif nccl --acceptance --calibrate LOG) for the fit&apos;s own tolerance (5 % from 64 MiB, 15 % below) where that log ran.</source>
        <translation>容差：引擎所验证的真实跨节点 nccl-tests 日志低于引擎预测值的最大差距，按消息大小：{bands}。用您自己的日志校准网络（fabric-whatif nccl --acceptance --calibrate LOG），在该日志运行的规模上即使用拟合本身的容差（64 MiB 起 5 %，以下 15 %）。</translation>
    </message>
    <message>
        <source>Fabric figures: {name}; expected figures from the engine&apos;s collective model at each node count.</source>
        <translation>网络参数：{name}；预期值来自引擎在各节点数下的集合通信模型。</translation>
    </message>
    <message>
        <source>Message size</source>
        <translation>消息大小</translation>
    </message>
    <message>
        <source>Tolerance</source>
        <translation>容差</translation>
    </message>
    <message>
        <source>{n} nodes</source>
        <translation>{n} 节点</translation>
    </message>
    <message>
        <source>minimum (expected)</source>
        <translation>最低值（预期值）</translation>
    </message>
    <message>
        <source>from {lo}: {tol} %</source>
        <translation>{lo} 起：{tol} %</translation>
    </message>
    <message>
        <source>{lo} to under {hi}: {tol} %</source>
        <translation>{lo} 至 {hi} 以下：{tol} %</translation>
    </message>
</context>
<context>
    <name>ArticleBanner</name>
    <message>
        <source>The physics departs from the article: {fabric} {engine} here, the article says {article}.</source>
        <translation>物理模型与文章结论不同：此处 {fabric} {engine}，文章为 {article}。</translation>
    </message>
    <message>
        <source>The physics matches the article&apos;s training days here (within {pct} %).</source>
        <translation>此处物理模型与文章的训练天数一致（相差不超过 {pct} %）。</translation>
    </message>
    <message>
        <source>{days} days</source>
        <translation>{days} 天</translation>
    </message>
    <message>
        <source>Open the audit</source>
        <translation>打开核对表</translation>
    </message>
</context>
<context>
    <name>Axes</name>
    <message>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>Model parameters</source>
        <translation>模型参数量</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>时延</translation>
    </message>
    <message>
        <source>Packet loss</source>
        <translation>丢包率</translation>
    </message>
    <message>
        <source>Bandwidth per NIC</source>
        <translation>每网卡带宽</translation>
    </message>
</context>
<context>
    <name>Bands</name>
    <message>
        <source>P10–P90 bands on ({n} samples) · widest ±{pct} %</source>
        <translation>P10–P90 区间已开启（{n} 个样本）· 最宽 ±{pct} %</translation>
    </message>
    <message>
        <source>the x-axis sets its ranged value</source>
        <translation>横轴设定了它唯一有范围的取值</translation>
    </message>
    <message>
        <source>no value of it has a published range</source>
        <translation>它没有任何带公开范围的取值</translation>
    </message>
    <message>
        <source>no band for {fabric}: {why}</source>
        <translation>{fabric} 无区间：{why}</translation>
    </message>
</context>
<context>
    <name>BreakEven</name>
    <message>
        <source>{n} nodes</source>
        <translation>{n} 个节点</translation>
    </message>
    <message>
        <source>{n} B parameters</source>
        <translation>{n}B 参数</translation>
    </message>
    <message>
        <source>{n} µs latency</source>
        <translation>{n} µs 时延</translation>
    </message>
    <message>
        <source>{n} % packet loss</source>
        <translation>{n} % 丢包率</translation>
    </message>
    <message>
        <source>{n} Gb/s per NIC</source>
        <translation>每网卡 {n} Gb/s</translation>
    </message>
    <message>
        <source>{above} costs less (TCO) above {x}; {below} below</source>
        <translation>超过 {x}时，{above} 的 TCO 更低；低于此值时 {below} 更低</translation>
    </message>
    <message>
        <source>{above} trains faster above {x}; {below} below</source>
        <translation>超过 {x}时，{above} 训练更快；低于此值时 {below} 更快</translation>
    </message>
    <message>
        <source>{above} costs less per run above {x}; {below} below</source>
        <translation>超过 {x}时，{above} 的单次训练成本更低；低于此值时 {below} 更低</translation>
    </message>
    <message>
        <source>{above} is better on {metric} above {x}; {below} below</source>
        <translation>超过 {x}时，{above} 的{metric}更优；低于此值时 {below} 更优</translation>
    </message>
    <message>
        <source>{above} pays off above {x}</source>
        <translation>超过 {x}时 {above} 更划算</translation>
    </message>
    <message>
        <source>{above} faster above {x}</source>
        <translation>超过 {x}时 {above} 更快</translation>
    </message>
    <message>
        <source>No point where both have a plan</source>
        <translation>两者没有同时可行的并行方案</translation>
    </message>
    <message>
        <source>No break-even on TCO over {range}: {win} costs less than {lose} throughout</source>
        <translation>在 {range}范围内 TCO 无盈亏平衡点：{win} 始终比 {lose} 便宜</translation>
    </message>
    <message>
        <source>No break-even on cost per run over {range}: {win} costs less than {lose} throughout</source>
        <translation>在 {range}范围内单次训练成本无盈亏平衡点：{win} 始终比 {lose} 便宜</translation>
    </message>
    <message>
        <source>No break-even on duration over {range}: {win} trains faster than {lose} throughout</source>
        <translation>在 {range}范围内训练时长无盈亏平衡点：{win} 始终比 {lose} 快</translation>
    </message>
    <message>
        <source>{a} and {b} trade places {n} times on {metric} between {lo} and {hi}: too close to call</source>
        <translation>{a} 与 {b} 在 {lo} 到 {hi} 之间的{metric}交替领先 {n} 次：难分高下</translation>
    </message>
    <message>
        <source>TCO</source>
        <translation>TCO</translation>
    </message>
    <message>
        <source>duration</source>
        <translation>训练时长</translation>
    </message>
    <message>
        <source>cost per run</source>
        <translation>单次训练成本</translation>
    </message>
    <message>
        <source>InfiniBand vs the fastest other</source>
        <translation>InfiniBand 对比其余最快者</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>with</source>
        <translation>与</translation>
    </message>
    <message>
        <source>No sweep to compare</source>
        <translation>没有可比较的扫描结果</translation>
    </message>
</context>
<context>
    <name>BreakdownChart</name>
    <message>
        <source>Step time at this point</source>
        <translation>当前点的单步时间</translation>
    </message>
    <message>
        <source>Time per training step (s)</source>
        <translation>每个训练步耗时（秒）</translation>
    </message>
    <message>
        <source>no plan fits: {names}</source>
        <translation>无可行方案：{names}</translation>
    </message>
    <message>
        <source>no plan</source>
        <translation>无方案</translation>
    </message>
    <message>
        <source>{fabric}: {part} {seconds} s ({pct}% of {total} s)</source>
        <translation>{fabric}：{part} {seconds} 秒（占 {total} 秒的 {pct}%）</translation>
    </message>
</context>
<context>
    <name>CalibrateDialog</name>
    <message>
        <source>Calibrate a fabric from nccl-tests</source>
        <translation>用 nccl-tests 校准网络</translation>
    </message>
    <message>
        <source>Paste or open the output of nccl-tests (all_reduce_perf, all_gather_perf, …) run across at least two nodes. The fit gives the collective model&apos;s own parameters on your network: achievable bandwidth per NIC, latency per hop and per protocol (LL, LL128, Simple), pipeline fill.</source>
        <translation>粘贴或打开跨至少两个节点运行的 nccl-tests 输出（all_reduce_perf、all_gather_perf 等）。拟合得出集合通信模型在您网络上的自身参数：每网卡可达带宽、每跳时延及各协议（LL、LL128、Simple）的每跳时延、流水线填充量。</translation>
    </message>
    <message>
        <source>&amp;Open log…</source>
        <translation>打开日志(&amp;O)…</translation>
    </message>
    <message>
        <source>No file: paste the log below</source>
        <translation>未选文件：请在下方粘贴日志</translation>
    </message>
    <message>
        <source># size count type redop root time algbw busbw …</source>
        <translation># size count type redop root time algbw busbw …（粘贴 nccl-tests 输出）</translation>
    </message>
    <message>
        <source>from the log, else {transport}</source>
        <translation>取自日志，否则 {transport}</translation>
    </message>
    <message>
        <source>from the log, else {n}</source>
        <translation>取自日志，否则 {n}</translation>
    </message>
    <message>
        <source>from the log (NCCL_ALGO), else auto</source>
        <translation>取自日志（NCCL_ALGO），否则自动</translation>
    </message>
    <message>
        <source>from the log</source>
        <translation>取自日志</translation>
    </message>
    <message>
        <source>{fabric} (measured)</source>
        <translation>{fabric}（实测）</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Transport</source>
        <translation>传输协议</translation>
    </message>
    <message>
        <source>Link speed per NIC</source>
        <translation>每网卡链路速率</translation>
    </message>
    <message>
        <source>NICs per node</source>
        <translation>每节点网卡数</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>进程数</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>Save as (name)</source>
        <translation>保存为（名称）</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>显示名称</translation>
    </message>
    <message>
        <source>Message size</source>
        <translation>消息大小</translation>
    </message>
    <message>
        <source>Bus bandwidth (GB/s)</source>
        <translation>总线带宽（GB/s）</translation>
    </message>
    <message>
        <source>Measured points and the fitted collective model</source>
        <translation>实测点与拟合的集合通信模型</translation>
    </message>
    <message>
        <source>fitted model</source>
        <translation>拟合模型</translation>
    </message>
    <message>
        <source>&amp;Use for the forecast</source>
        <translation>用于预测(&amp;U)</translation>
    </message>
    <message>
        <source>Give the fabric in focus ({fabric}) the calibrated values: training days and cost are forecast again from your measured network</source>
        <translation>将校准值赋予当前网络（{fabric}）：按您实测的网络重新预测训练天数和成本</translation>
    </message>
    <message>
        <source>Fit error of bus bandwidth: ≥ 64 MiB max &lt;b&gt;{large} %&lt;/b&gt;, ≥ 1 MiB max &lt;b&gt;{medium} %&lt;/b&gt; (tolerance {tl} % / {tm} %)</source>
        <translation>总线带宽拟合误差：≥ 64 MiB 最大 &lt;b&gt;{large} %&lt;/b&gt;，≥ 1 MiB 最大 &lt;b&gt;{medium} %&lt;/b&gt;（容差 {tl} % / {tm} %）</translation>
    </message>
    <message>
        <source>Protocols: </source>
        <translation>协议：</translation>
    </message>
    <message>
        <source>{fabric} (calibrated)</source>
        <translation>{fabric}（已校准）</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Ethernet (TCP)</source>
        <translation>以太网（TCP）</translation>
    </message>
    <message>
        <source>&amp;Save as fabric</source>
        <translation>保存为网络(&amp;S)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Reading {path} …</source>
        <translation>正在读取 {path} …</translation>
    </message>
    <message>
        <source>Cannot read {path}: {error}</source>
        <translation>无法读取 {path}：{error}</translation>
    </message>
    <message>
        <source>pasted log</source>
        <translation>粘贴的日志</translation>
    </message>
    <message>
        <source>Fitting the collective model …</source>
        <translation>正在拟合集合通信模型 …</translation>
    </message>
    <message>
        <source>{n} NICs per node</source>
        <translation>每节点 {n} 个网卡</translation>
    </message>
    <message>
        <source>algorithm {algorithm} (NCCL_ALGO)</source>
        <translation>算法 {algorithm}（NCCL_ALGO）</translation>
    </message>
    <message>
        <source>The log says {log}, the dialog is set to {chosen}: the fit uses your choice</source>
        <translation>日志为 {log}，此处设定为 {chosen}：拟合使用你的选择</translation>
    </message>
    <message>
        <source>&lt;b&gt;{coll}&lt;/b&gt;, {ranks} ranks on {nodes} nodes, {n} message sizes</source>
        <translation>&lt;b&gt;{coll}&lt;/b&gt;，{nodes} 个节点上 {ranks} 个进程，{n} 种消息大小</translation>
    </message>
    <message>
        <source>From the log: {choices}</source>
        <translation>取自日志：{choices}</translation>
    </message>
    <message>
        <source>The log names no transport, NICs or algorithm: the dialog&apos;s choices are used</source>
        <translation>日志未给出传输、网卡或算法：使用此处的选择</translation>
    </message>
    <message>
        <source>Kept as the fabric&apos;s own (not fitted): latency {lat} µs per hop, packet loss {loss} %</source>
        <translation>保留网络自身的取值（不拟合）：每跳时延 {lat} µs，丢包率 {loss} %</translation>
    </message>
    <message>
        <source>Achievable &lt;b&gt;{frac} %&lt;/b&gt; of {link} Gb/s per NIC ({nic} GB/s) · NCCL&apos;s step cost per hop LL / LL128 / Simple {ll} / {ll128} / {simple} µs · pipeline fill {fill} KiB · LL128 efficiency {e128} · tree efficiency {etree}</source>
        <translation>每网卡可达 {link} Gb/s 的 &lt;b&gt;{frac} %&lt;/b&gt;（{nic} GB/s）· NCCL 每跳步时间 LL / LL128 / Simple {ll} / {ll128} / {simple} µs · 流水线填充 {fill} KiB · LL128 效率 {e128} · 树效率 {etree}</translation>
    </message>
    <message>
        <source>As a fabric: {transport}, {nics} × {link} Gb/s</source>
        <translation>作为网络：{transport}，{nics} × {link} Gb/s</translation>
    </message>
    <message>
        <source>Paste a log or open a file to see the fit.</source>
        <translation>粘贴日志或打开文件即可查看拟合结果。</translation>
    </message>
    <message>
        <source>Name &apos;{name}&apos;: letters, digits and _ only, starting with a letter</source>
        <translation>名称“{name}”：只能包含字母、数字和 _，且以字母开头</translation>
    </message>
</context>
<context>
    <name>Charts</name>
    <message>
        <source>GPU utilisation (MFU)</source>
        <translation>GPU 利用率（MFU）</translation>
    </message>
    <message>
        <source>Model FLOPs utilisation (%)</source>
        <translation>模型 FLOPs 利用率（%）</translation>
    </message>
    <message>
        <source>Training duration (faint: without interruptions)</source>
        <translation>训练时长（浅色：不含中断）</translation>
    </message>
    <message>
        <source>Training duration (days)</source>
        <translation>训练时长（天）</translation>
    </message>
    <message>
        <source>Cost per training run</source>
        <translation>单次训练成本</translation>
    </message>
    <message>
        <source>Cost per run ({currency})</source>
        <translation>单次训练成本（{currency}）</translation>
    </message>
    <message>
        <source>Cost per run</source>
        <translation>单次训练成本</translation>
    </message>
    <message>
        <source>{years}-year TCO</source>
        <translation>{years} 年 TCO</translation>
    </message>
    <message>
        <source>Total cost of ownership</source>
        <translation>总拥有成本</translation>
    </message>
    <message>
        <source>Same cluster: {years}-year TCO against {baseline}</source>
        <translation>同一集群：{years} 年 TCO 对比 {baseline}</translation>
    </message>
    <message>
        <source>Same cluster: TCO against {baseline}</source>
        <translation>同一集群：TCO 相对 {baseline}</translation>
    </message>
    <message>
        <source>TCO vs {baseline} (%)</source>
        <translation>TCO 相对 {baseline}（%）</translation>
    </message>
    <message>
        <source> (off scale: up to {value})</source>
        <translation>（超出刻度：最高 {value}）</translation>
    </message>
    <message>
        <source> (without interruptions)</source>
        <translation>（不含中断）</translation>
    </message>
    <message>
        <source> w/o interr.</source>
        <translation> 不含中断</translation>
    </message>
    <message>
        <source>stalls — {line}</source>
        <translation>停滞 — {line}</translation>
    </message>
    <message>
        <source> (clipped)</source>
        <translation>（已截断）</translation>
    </message>
    <message>
        <source>engine: {value}</source>
        <translation>引擎：{value}</translation>
    </message>
    <message>
        <source>micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>virtual stages</source>
        <translation>虚拟流水级</translation>
    </message>
    <message>
        <source>plan unchanged (tp {tp} · pp {pp} · dp {dp0}→{dp1}); {part} {delta}</source>
        <translation>并行方案不变（tp {tp} · pp {pp} · dp {dp0}→{dp1}）；{part} {delta}</translation>
    </message>
    <message>
        <source>whole-number rule: {m0}→{m1} micro-batches per step (the batch over dp, rounded up)</source>
        <translation>整除规则：每步微批次数 {m0}→{m1}（批大小除以 dp 后向上取整）</translation>
    </message>
    <message>
        <source>{n} GPUs idle (they do not fill a replica of tp · pp = {size})</source>
        <translation>{n} 块 GPU 闲置（凑不满一个 tp · pp = {size} 的副本）</translation>
    </message>
    <message>
        <source>plan: {changes}</source>
        <translation>并行方案：{changes}</translation>
    </message>
    <message>
        <source>leave {n} GPUs idle</source>
        <translation>闲置 {n} 块 GPU</translation>
    </message>
    <message>
        <source>round the batch {asked}→{batch}</source>
        <translation>把批大小从 {asked} 凑整到 {batch}</translation>
    </message>
    <message>
        <source>lose its interleaving (micro-batches not a multiple of pp)</source>
        <translation>无法交错调度（微批次数不是 pp 的整数倍）</translation>
    </message>
    <message>
        <source>whole-number rule: the previous plan would {reasons} here</source>
        <translation>整除规则：沿用上一点的方案在此会{reasons}</translation>
    </message>
    <message>
        <source> and </source>
        <translation>并且</translation>
    </message>
    <message>
        <source>shaded: {fabric} leaves GPUs idle (batch does not divide)</source>
        <translation>阴影：{fabric} 有 GPU 空闲（批大小无法整除）</translation>
    </message>
    <message>
        <source>no plan fits</source>
        <translation>无可行方案</translation>
    </message>
    <message>
        <source>{value} days</source>
        <translation>{value} 天</translation>
    </message>
    <message>
        <source>profile: {name}</source>
        <translation>配置集：{name}</translation>
    </message>
    <message>
        <source>Training duration</source>
        <translation>训练时长</translation>
    </message>
    <message>
        <source>blank: no parallel plan fits there</source>
        <translation>空白处：没有可行的并行方案</translation>
    </message>
    <message>
        <source>○ whole-number plan step (hover)</source>
        <translation>○ 整除规则导致的方案跳变（悬停查看）</translation>
    </message>
    <message>
        <source>MFU (%)</source>
        <translation>MFU（%）</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>Δ TCO (%)</source>
        <translation>TCO 差（%）</translation>
    </message>
    <message>
        <source>Per run</source>
        <translation>单次成本</translation>
    </message>
    <message>
        <source>w/o interruptions</source>
        <translation>不含中断</translation>
    </message>
    <message>
        <source>idle GPUs: batch does not divide</source>
        <translation>GPU 空闲：批大小无法整除</translation>
    </message>
    <message>
        <source>At this point — {x}: {value}</source>
        <translation>当前点 — {x}：{value}</translation>
    </message>
    <message>
        <source>At this point</source>
        <translation>当前点</translation>
    </message>
</context>
<context>
    <name>Claims</name>
    <message>
        <source>(energy per run on {baseline} {energy_baseline} − on {fabric} {energy_fabric}) × the {runs} runs {fabric} completes a year; {baseline} would need {slower} years for them, so this exceeds a year’s electricity bill ({bill})</source>
        <translation>（{baseline} 每次训练电费 {energy_baseline} − {fabric} 每次训练电费 {energy_fabric}）× {fabric} 每年完成的 {runs} 次训练；{baseline} 完成这些训练需要 {slower} 年，因此该数值超过一年的电费（{bill}）</translation>
    </message>
    <message>
        <source>1 − cost per token on {fabric} / on {baseline}: {baseline} needs {slower}× the cluster-years for the same tokens</source>
        <translation>1 − {fabric} 每 token 成本 / {baseline} 每 token 成本：{baseline} 训练同样多的 token 需要 {slower} 倍的集群年数</translation>
    </message>
    <message>
        <source>{fabric}’s {years}-year output ({tokens_b} B tokens) bought at {baseline}’s cost per token ({bought}, {slower}× the cluster-years) − {fabric}’s TCO ({tco}): larger than a TCO because {baseline} would need {slower}× as long</source>
        <translation>{fabric} {years} 年的产出（{tokens_b}B token）按 {baseline} 的每 token 成本计（{bought}，{slower} 倍的集群年数）− {fabric} 的 TCO（{tco}）：之所以大于 TCO，是因为 {baseline} 需要 {slower} 倍的时间</translation>
    </message>
</context>
<context>
    <name>Compare</name>
    <message>
        <source>Utilisation (MFU, %)</source>
        <translation>利用率（MFU，%）</translation>
    </message>
    <message>
        <source>Training days</source>
        <translation>训练天数</translation>
    </message>
    <message>
        <source>TCO</source>
        <translation>TCO</translation>
    </message>
    <message>
        <source>Pin a scenario as A (Tools ▸ Pin as A), then change things: A stays dashed on the charts and here beside the current B.</source>
        <translation>先把当前场景固定为 A（工具 ▸ 固定为 A），再修改参数：A 以虚线留在图上，并在此处与当前的 B 并列显示。</translation>
    </message>
    <message>
        <source>Fabric</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>A (pinned)</source>
        <translation>A（已固定）</translation>
    </message>
    <message>
        <source>B (now)</source>
        <translation>B（当前）</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>&lt;b&gt;A&lt;/b&gt;: {a} (pinned {when}) &amp;nbsp;·&amp;nbsp; &lt;b&gt;B&lt;/b&gt;: {b} (now)</source>
        <translation>&lt;b&gt;A&lt;/b&gt;：{a}（{when} 固定）&amp;nbsp;·&amp;nbsp; &lt;b&gt;B&lt;/b&gt;：{b}（当前）</translation>
    </message>
    <message>
        <source> and {n} more</source>
        <translation> 等另外 {n} 项</translation>
    </message>
    <message>
        <source>Changed from A: {list}</source>
        <translation>相对 A 的改动：{list}</translation>
    </message>
    <message>
        <source>B is the same scenario as A</source>
        <translation>B 与 A 是同一场景</translation>
    </message>
</context>
<context>
    <name>CostChart</name>
    <message>
        <source>network capex</source>
        <translation>网络资本支出</translation>
    </message>
    <message>
        <source>servers capex</source>
        <translation>服务器资本支出</translation>
    </message>
    <message>
        <source>opex over the years</source>
        <translation>年限内运营支出</translation>
    </message>
    <message>
        <source>Cost per training run (the same work)</source>
        <translation>每次训练成本（同样的工作量）</translation>
    </message>
    <message>
        <source>Same cluster: {years}-year TCO against {baseline}</source>
        <translation>同一集群：{years} 年 TCO 对比 {baseline}</translation>
    </message>
    <message>
        <source>{money} less</source>
        <translation>少 {money}</translation>
    </message>
    <message>
        <source>{money} more</source>
        <translation>多 {money}</translation>
    </message>
    <message>
        <source>Baseline:</source>
        <translation>基线：</translation>
    </message>
    <message>
        <source>Baseline fabric</source>
        <translation>基线网络</translation>
    </message>
    <message>
        <source>The fabric the TCO differences are measured from</source>
        <translation>TCO 差额以此网络为基准</translation>
    </message>
    <message>
        <source>change against {baseline}</source>
        <translation>相对 {baseline} 的变化</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>%: network share of TCO</source>
        <translation>%：网络占 TCO 的比例</translation>
    </message>
</context>
<context>
    <name>Csv</name>
    <message>
        <source>scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>fingerprint</source>
        <translation>指纹</translation>
    </message>
    <message>
        <source>fabric figures</source>
        <translation>网络参数</translation>
    </message>
    <message>
        <source>chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>units</source>
        <translation>单位</translation>
    </message>
    <message>
        <source>engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>{x} along the rows; {y}; rounded to {n} significant figures</source>
        <translation>各行为{x}；{y}；保留 {n} 位有效数字</translation>
    </message>
    <message>
        <source>; money in {currency}</source>
        <translation>；金额单位 {currency}</translation>
    </message>
</context>
<context>
    <name>Data</name>
    <message>
        <source>Traditional Ethernet (TCP)</source>
        <translation>传统以太网（TCP）</translation>
    </message>
    <message>
        <source>RoCE (RDMA over Converged Ethernet)</source>
        <translation>RoCE（融合以太网上的 RDMA）</translation>
    </message>
    <message>
        <source>RoCE v2 (lossless, PFC)</source>
        <translation>RoCE v2（无损，PFC）</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>时延</translation>
    </message>
    <message>
        <source>Bandwidth per node</source>
        <translation>每节点带宽</translation>
    </message>
    <message>
        <source>Host CPU use</source>
        <translation>主机 CPU 占用</translation>
    </message>
    <message>
        <source>Network interruptions per day</source>
        <translation>每天网络中断率</translation>
    </message>
    <message>
        <source>Interruptions over the observed months</source>
        <translation>观测期内的中断</translation>
    </message>
    <message>
        <source>Training days (with interruptions)</source>
        <translation>训练天数（含中断）</translation>
    </message>
    <message>
        <source>Training time saved vs the baseline</source>
        <translation>相对基线节省的训练时间</translation>
    </message>
    <message>
        <source>Network cost per node</source>
        <translation>每节点网络成本</translation>
    </message>
    <message>
        <source>Network capex below InfiniBand</source>
        <translation>网络投资低于 InfiniBand 的比例</translation>
    </message>
    <message>
        <source>TCO</source>
        <translation>TCO</translation>
    </message>
    <message>
        <source>TCO saving vs the baseline (same cluster)</source>
        <translation>相对基线的 TCO 节省（同一集群）</translation>
    </message>
    <message>
        <source>TCO saving vs the baseline (same work)</source>
        <translation>相对基线的 TCO 节省（同等工作量）</translation>
    </message>
    <message>
        <source>Cost per token below the baseline (same work)</source>
        <translation>每 token 成本低于基线的比例（同等工作量）</translation>
    </message>
    <message>
        <source>Electricity saving per year (same work)</source>
        <translation>每年电费节省（同等工作量）</translation>
    </message>
    <message>
        <source>PUE</source>
        <translation>PUE</translation>
    </message>
    <message>
        <source>Interruptions in one run</source>
        <translation>单次训练的中断次数</translation>
    </message>
    <message>
        <source>Hours lost to interruptions in one run</source>
        <translation>单次训练因中断损失的小时数</translation>
    </message>
    <message>
        <source>Cost of the hours lost (share of TCO)</source>
        <translation>损失小时的成本（按 TCO 分摊）</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Tensor-parallel comm</source>
        <translation>张量并行通信</translation>
    </message>
    <message>
        <source>Context-parallel ring (exposed)</source>
        <translation>上下文并行环形通信(未被掩盖部分)</translation>
    </message>
    <message>
        <source>Expert all-to-all</source>
        <translation>专家 all-to-all 通信</translation>
    </message>
    <message>
        <source>Pipeline comm</source>
        <translation>流水线通信</translation>
    </message>
    <message>
        <source>Data-parallel comm (exposed)</source>
        <translation>数据并行通信（未被掩盖）</translation>
    </message>
    <message>
        <source>Pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <source>Loss recovery</source>
        <translation>丢包恢复</translation>
    </message>
    <message>
        <source>Host CPU limit</source>
        <translation>主机 CPU 瓶颈</translation>
    </message>
    <message>
        <source>Optimizer step</source>
        <translation>优化器更新</translation>
    </message>
    <message>
        <source>Case studies</source>
        <translation>案例</translation>
    </message>
    <message>
        <source>Scale tiers</source>
        <translation>规模档位</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Case 1 · 8 × A10 · 5B (university lab, RoCE)</source>
        <translation>案例 1 · 8 × A10 · 5B（高校实验室，RoCE）</translation>
    </message>
    <message>
        <source>Case 2 · 24 × A100 · 30B (autonomous driving, InfiniBand)</source>
        <translation>案例 2 · 24 × A100 · 30B（自动驾驶，InfiniBand）</translation>
    </message>
    <message>
        <source>Case 3 · 128 × H100 · 1T (AI computing centre, InfiniBand)</source>
        <translation>案例 3 · 128 × H100 · 1T（智算中心，InfiniBand）</translation>
    </message>
    <message>
        <source>Default: 24 × A100, 30B</source>
        <translation>默认：24 × A100，30B</translation>
    </message>
    <message>
        <source>Large tier · 128 × H100 · 1T</source>
        <translation>大规模档 · 128 × H100 · 1T</translation>
    </message>
    <message>
        <source>Medium tier · 32 × A100 · 50B</source>
        <translation>中规模档 · 32 × A100 · 50B</translation>
    </message>
    <message>
        <source>Small tier · 4 × A10 · 10B</source>
        <translation>小规模档 · 4 × A10 · 10B</translation>
    </message>
    <message>
        <source>Llama 3 405B · 16,384 × H100</source>
        <translation>Llama 3 405B · 16,384 块 H100</translation>
    </message>
    <message>
        <source>MoE · DeepSeek-V3 shape · 2,048 H100 (H800 stand-in)</source>
        <translation>MoE · DeepSeek-V3 形态 · 2,048 H100（代替 H800）</translation>
    </message>
    <message>
        <source>Dense counterpart of Mixtral 8x22B · 64 × 8 H100</source>
        <translation>Mixtral 8x22B 的稠密对照模型 · 64 × 8 H100</translation>
    </message>
    <message>
        <source>MoE · Mixtral 8x22B shape · 64 × 8 H100</source>
        <translation>MoE · Mixtral 8x22B 形态 · 64 × 8 H100</translation>
    </message>
    <message>
        <source>Article case 1: 8 × A10 nodes, 5B model, RoCE chosen; 10 → 6.2 days</source>
        <translation>文章案例 1：8 台 A10 节点，5B 模型，选用 RoCE；10 → 6.2 天</translation>
    </message>
    <message>
        <source>Article case 2: 24 × A100 nodes, 30B model, InfiniBand chosen; 22 → 13 days</source>
        <translation>文章案例 2：24 台 A100 节点，30B 模型，选用 InfiniBand；22 → 13 天</translation>
    </message>
    <message>
        <source>Article case 3: 128 × H100 nodes, 1T model, InfiniBand with liquid cooling; 60 → 32 days</source>
        <translation>文章案例 3：128 台 H100 节点，1T 模型，InfiniBand 加液冷；60 → 32 天</translation>
    </message>
    <message>
        <source>Llama 3 405B on 16,384 H100: sequence 8,192, GQA 8 KV heads, SwiGLU, FSDP as ZeRO-1 traffic with FP32 gradients, no activation checkpointing (fused kernels recompute the norms and SwiGLU products); plan searched</source>
        <translation>Llama 3 405B，16,384 块 H100：序列长度 8,192，GQA 8 个 KV 头，SwiGLU，FSDP 按 ZeRO-1 流量计、梯度以 FP32 传输，不做激活检查点（融合算子在反向中重算归一化与 SwiGLU 乘积）；并行方案由搜索得出</translation>
    </message>
    <message>
        <source>256 experts, top-8 + shared, EP 64 over 8 nodes, PP 16, FP8: expert all-to-all on the fabric</source>
        <translation>256 个专家，top-8 + 共享专家，EP 64 跨 8 个节点，PP 16，FP8：专家 all-to-all 走集群网络</translation>
    </message>
    <message>
        <source>Dense 39B with Mixtral 8x22B&apos;s active compute: the baseline for the MoE fabric gap</source>
        <translation>稠密 39B 模型，计算量同 Mixtral 8x22B 的激活部分：衡量 MoE 网络差距的基线</translation>
    </message>
    <message>
        <source>8 experts, top-2, 141B total / 39B active: expert all-to-all over NVLink and the fabric</source>
        <translation>8 个专家，top-2，总参数 141B / 激活 39B：专家 all-to-all 经 NVLink 和集群网络</translation>
    </message>
    <message>
        <source>Article large tier: &gt; 32 nodes, 50B-1T parameters; InfiniBand 60 → 32 days for a 1T model</source>
        <translation>文章大规模档：&gt; 32 个节点，50B–1T 参数；1T 模型用 InfiniBand 60 → 32 天</translation>
    </message>
    <message>
        <source>Article medium tier: 8-32 nodes, 10B-50B parameters; InfiniBand 28 → 16 days for a 50B model</source>
        <translation>文章中规模档：8–32 个节点，10B–50B 参数；50B 模型用 InfiniBand 28 → 16 天</translation>
    </message>
    <message>
        <source>Article small tier: 2-8 nodes, 1B-10B parameters; RoCE 12 → 7.5 days for a 10B model</source>
        <translation>文章小规模档：2–8 个节点，1B–10B 参数；10B 模型用 RoCE 12 → 7.5 天</translation>
    </message>
    <message>
        <source>CNY 4,200 per node</source>
        <translation>每节点 4,200 元</translation>
    </message>
    <message>
        <source>≤ CNY 8 M over 5 years (cap)</source>
        <translation>5 年内 ≤ ¥800 万（上限）</translation>
    </message>
    <message>
        <source>CNY 1.76 M below Ethernet over 5 years</source>
        <translation>5 年内比 Ethernet 低 ¥176 万</translation>
    </message>
    <message>
        <source>&gt; CNY 1.8 M per year</source>
        <translation>每年 &gt; ¥180 万</translation>
    </message>
    <message>
        <source>40 % below InfiniBand up front</source>
        <translation>前期投入比 InfiniBand 低 40 %</translation>
    </message>
    <message>
        <source>Ethernet</source>
        <translation>以太网</translation>
    </message>
</context>
<context>
    <name>DataPhrase</name>
    <message>
        <source>none in {0} months</source>
        <translation>{0} 个月内无中断</translation>
    </message>
    <message>
        <source>{0} days</source>
        <translation>{0} 天</translation>
    </message>
    <message>
        <source>CNY {0} per node</source>
        <translation>每节点 CNY {0}</translation>
    </message>
    <message>
        <source>{0} % below InfiniBand up front</source>
        <translation>前期投入比 InfiniBand 低 {0} %</translation>
    </message>
    <message>
        <source>(cap ≤ {0})</source>
        <translation>（上限 ≤ {0}）</translation>
    </message>
    <message>
        <source>(cap)</source>
        <translation>（上限）</translation>
    </message>
    <message>
        <source>{0} below Ethernet over {1} years</source>
        <translation>{1} 年内比 Ethernet 低 {0}</translation>
    </message>
    <message>
        <source>over {0} years</source>
        <translation>{0} 年内</translation>
    </message>
    <message>
        <source>per year</source>
        <translation>每年</translation>
    </message>
    <message>
        <source>(before)</source>
        <translation>（改造前）</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <source>MFU (%)</source>
        <translation>MFU (%)</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>A: {name}</source>
        <translation>A：{name}</translation>
    </message>
    <message>
        <source>P10–P90</source>
        <translation>P10–P90 区间</translation>
    </message>
</context>
<context>
    <name>Features</name>
    <message>
        <source>Sensitivity (tornado)</source>
        <translation>敏感性（龙卷风图）</translation>
    </message>
    <message>
        <source>Break-even</source>
        <translation>盈亏平衡</translation>
    </message>
    <message>
        <source>A/B compare</source>
        <translation>A/B 对比</translation>
    </message>
    <message>
        <source>&amp;Calibrate fabric from nccl-tests…</source>
        <translation>用 nccl-tests 校准网络(&amp;C)…</translation>
    </message>
    <message>
        <source>Export A/B comparison as CSV…</source>
        <translation>导出 A/B 对比为 CSV…</translation>
    </message>
    <message>
        <source>Uncertainty &amp;bands (P10–P90)</source>
        <translation>不确定性区间(&amp;B)（P10–P90）</translation>
    </message>
    <message>
        <source>Monte-Carlo over every profile value given as a range: 1,000 seeded samples, drawn when the view settles</source>
        <translation>对配置中所有以区间给出的数值做蒙特卡洛模拟：1,000 个固定种子样本，视图静止后绘制</translation>
    </message>
    <message>
        <source>&amp;Dark theme</source>
        <translation>深色主题(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;MoE vs dense fabric gap…</source>
        <translation>MoE 与稠密模型的网络差距(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Price book…</source>
        <translation>价格表(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Pin as A</source>
        <translation>固定为 A(&amp;P)</translation>
    </message>
    <message>
        <source>C&amp;lear pin</source>
        <translation>清除固定(&amp;L)</translation>
    </message>
    <message>
        <source>engine {engine} ms · bands {bands} ms</source>
        <translation>引擎 {engine} ms · 区间 {bands} ms</translation>
    </message>
    <message>
        <source>Open nccl-tests output</source>
        <translation>打开 nccl-tests 输出</translation>
    </message>
    <message>
        <source>nccl-tests logs (*.txt *.log *.out);;All files (*)</source>
        <translation>nccl-tests 日志 (*.txt *.log *.out);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Export A/B comparison</source>
        <translation>导出 A/B 对比</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Could not write {path}: {error}</source>
        <translation>无法写入 {path}：{error}</translation>
    </message>
    <message>
        <source>&amp;nccl-tests prediction…</source>
        <translation>&amp;nccl-tests 预测…</translation>
    </message>
</context>
<context>
    <name>Field</name>
    <message>
        <source>Bandwidth per NIC</source>
        <translation>每网卡带宽</translation>
    </message>
    <message>
        <source>CNY per USD</source>
        <translation>美元兑人民币汇率</translation>
    </message>
    <message>
        <source>CPU share for network</source>
        <translation>用于网络的 CPU 比例</translation>
    </message>
    <message>
        <source>Checkpoint interval</source>
        <translation>检查点间隔</translation>
    </message>
    <message>
        <source>Checkpoint storage bandwidth</source>
        <translation>检查点存储带宽</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>货币</translation>
    </message>
    <message>
        <source>Checkpoint storage bandwidth per node</source>
        <translation>每节点检查点存储带宽</translation>
    </message>
    <message>
        <source>Deadline</source>
        <translation>期限</translation>
    </message>
    <message>
        <source>Duty cycle</source>
        <translation>占空比</translation>
    </message>
    <message>
        <source>Electricity (CNY)</source>
        <translation>电价（人民币）</translation>
    </message>
    <message>
        <source>Electricity (USD)</source>
        <translation>电价（美元）</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPU/host interruptions</source>
        <translation>GPU/主机中断</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <source>Global batch</source>
        <translation>全局批大小</translation>
    </message>
    <message>
        <source>Host cores</source>
        <translation>主机核数</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>时延</translation>
    </message>
    <message>
        <source>Model parameters</source>
        <translation>模型参数量</translation>
    </message>
    <message>
        <source>Network cost per node</source>
        <translation>每节点网络成本</translation>
    </message>
    <message>
        <source>Network interruptions</source>
        <translation>网络中断</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>Oversubscription</source>
        <translation>收敛比</translation>
    </message>
    <message>
        <source>PUE</source>
        <translation>PUE</translation>
    </message>
    <message>
        <source>Packet loss</source>
        <translation>丢包率</translation>
    </message>
    <message>
        <source>Restart time</source>
        <translation>重启时间</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Server price</source>
        <translation>服务器价格</translation>
    </message>
    <message>
        <source>Switch radix</source>
        <translation>交换机端口数</translation>
    </message>
    <message>
        <source>Training tokens</source>
        <translation>训练 token 数</translation>
    </message>
    <message>
        <source>Years</source>
        <translation>年限</translation>
    </message>
    <message>
        <source>Adaptive routing</source>
        <translation>自适应路由</translation>
    </message>
    <message>
        <source>Loss recovery</source>
        <translation>丢包恢复</translation>
    </message>
    <message>
        <source>Minimum RTO</source>
        <translation>最小重传超时</translation>
    </message>
    <message>
        <source>TCP segment size</source>
        <translation>TCP 分段大小</translation>
    </message>
    <message>
        <source>RDMA packet size</source>
        <translation>RDMA 包大小</translation>
    </message>
    <message>
        <source>TCP sockets per connection</source>
        <translation>每连接 TCP 套接字数</translation>
    </message>
    <message>
        <source>GPUDirect TCP</source>
        <translation>GPUDirect TCP（直达 GPU 内存）</translation>
    </message>
    <message>
        <source>Job placement</source>
        <translation>作业放置</translation>
    </message>
    <message>
        <source>Switch price</source>
        <translation>交换机价格</translation>
    </message>
    <message>
        <source>Switch power</source>
        <translation>交换机功耗</translation>
    </message>
    <message>
        <source>NIC price</source>
        <translation>网卡价格</translation>
    </message>
    <message>
        <source>NIC power</source>
        <translation>网卡功耗</translation>
    </message>
    <message>
        <source>Link price</source>
        <translation>链路价格</translation>
    </message>
    <message>
        <source>Spine switch price</source>
        <translation>脊交换机价格</translation>
    </message>
    <message>
        <source>Core switch price</source>
        <translation>核心交换机价格</translation>
    </message>
    <message>
        <source>Optic price</source>
        <translation>光模块价格</translation>
    </message>
    <message>
        <source>Cable price</source>
        <translation>线缆价格</translation>
    </message>
    <message>
        <source>Discount</source>
        <translation>折扣</translation>
    </message>
    <message>
        <source>Support per year</source>
        <translation>每年支持费用</translation>
    </message>
    <message>
        <source>Optic power</source>
        <translation>光模块功耗</translation>
    </message>
    <message>
        <source>Queue pairs per connection</source>
        <translation>每连接队列对数</translation>
    </message>
    <message>
        <source>SHARP</source>
        <translation>SHARP 网内归约</translation>
    </message>
    <message>
        <source>Achievable bandwidth share</source>
        <translation>可达带宽比例</translation>
    </message>
    <message>
        <source>Traffic per host core</source>
        <translation>每主机核心流量</translation>
    </message>
    <message>
        <source>NICs per node</source>
        <translation>每节点网卡数</translation>
    </message>
    <message>
        <source>GPU idle power share</source>
        <translation>GPU 空闲功耗比例</translation>
    </message>
    <message>
        <source>Operations per node-year</source>
        <translation>每节点每年运维费用</translation>
    </message>
    <message>
        <source>GPU-hour price</source>
        <translation>GPU 小时价格</translation>
    </message>
    <message>
        <source>Checkpoint bytes per parameter</source>
        <translation>每参数检查点字节数</translation>
    </message>
</context>
<context>
    <name>FieldHelp</name>
    <message>
        <source>Nodes (servers)</source>
        <translation>节点（服务器）数</translation>
    </message>
    <message>
        <source>GPUs in one node</source>
        <translation>每个节点中的 GPU 数</translation>
    </message>
    <message>
        <source>Model parameters, billions</source>
        <translation>模型参数量（十亿）</translation>
    </message>
    <message>
        <source>Tokens to train, billions</source>
        <translation>训练 token 数（十亿）</translation>
    </message>
    <message>
        <source>Electricity price in CNY (give this or the USD one); default from the profile set</source>
        <translation>人民币电价（与美元电价二选一）；默认取配置集的值</translation>
    </message>
    <message>
        <source>Electricity price in USD (give this or the CNY one)</source>
        <translation>美元电价（与人民币电价二选一）</translation>
    </message>
    <message>
        <source>Power usage effectiveness; default from the profile set</source>
        <translation>电能使用效率；默认取配置集的值</translation>
    </message>
    <message>
        <source>Years of service for the TCO</source>
        <translation>计算 TCO 的使用年限</translation>
    </message>
    <message>
        <source>Currency of every money output; default: the profile set&apos;s (seed CNY, published USD)</source>
        <translation>所有金额输出的货币；默认取配置集的货币（seed 为 CNY，published 为 USD）</translation>
    </message>
    <message>
        <source>One-way latency per network step</source>
        <translation>每个网络步的单向时延</translation>
    </message>
    <message>
        <source>Fraction of packets lost</source>
        <translation>丢包比例</translation>
    </message>
    <message>
        <source>Line rate per NIC</source>
        <translation>每网卡线速</translation>
    </message>
</context>
<context>
    <name>FieldRange</name>
    <message>
        <source>a number above {lo}</source>
        <translation>大于 {lo} 的数</translation>
    </message>
    <message>
        <source>a number of at least {lo}</source>
        <translation>至少 {lo} 的数</translation>
    </message>
    <message>
        <source>a whole number from {lo} to {hi}</source>
        <translation>{lo} 到 {hi} 之间的整数</translation>
    </message>
    <message>
        <source>a number above {lo} and at most {hi}</source>
        <translation>大于 {lo} 且不超过 {hi} 的数</translation>
    </message>
    <message>
        <source>a number from {lo} to {hi}</source>
        <translation>{lo} 到 {hi} 之间的数</translation>
    </message>
</context>
<context>
    <name>FieldSlider</name>
    <message>
        <source>(guess)</source>
        <translation>（估计值）</translation>
    </message>
    <message>
        <source>(edited)</source>
        <translation>（已修改）</translation>
    </message>
    <message>
        <source>(scenario)</source>
        <translation>（场景设定）</translation>
    </message>
    <message>
        <source>outside the realistic range</source>
        <translation>超出实际范围</translation>
    </message>
    <message>
        <source>The slider spans {lo} – {hi} {unit}, the range real clusters have; typed values beyond it are computed as given</source>
        <translation>滑块范围为 {lo} – {hi} {unit}，即实际集群的取值范围；输入超出此范围的值也会按输入计算</translation>
    </message>
</context>
<context>
    <name>FileActions</name>
    <message>
        <source>&amp;Open scenario…</source>
        <translation>打开场景(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save scenario</source>
        <translation>保存场景(&amp;S)</translation>
    </message>
    <message>
        <source>Save scenario &amp;As…</source>
        <translation>场景另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Export chart</source>
        <translation>导出图表(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Utilisation…</source>
        <translation>利用率(&amp;U)…</translation>
    </message>
    <message>
        <source>&amp;Training duration…</source>
        <translation>训练时长(&amp;T)…</translation>
    </message>
    <message>
        <source>T&amp;CO…</source>
        <translation>T&amp;CO…</translation>
    </message>
    <message>
        <source>Cost per &amp;run…</source>
        <translation>单次训练成本(&amp;R)…</translation>
    </message>
    <message>
        <source>Export &amp;proposal sheet (PDF)…</source>
        <translation>导出方案建议书(&amp;P)（PDF）…</translation>
    </message>
    <message>
        <source>Export proposal pac&amp;k…</source>
        <translation>导出方案资料包(&amp;K)…</translation>
    </message>
    <message>
        <source>(no recent files)</source>
        <translation>（无最近文件）</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>Autosave is off: its file is a symbolic link</source>
        <translation>自动保存已关闭：其文件是符号链接</translation>
    </message>
    <message>
        <source>{path} points to {target}. The autosave is never written through a link, which could overwrite another file. A fresh autosave moves the link aside and writes a new file there; the file it points to is not touched (open it with File ▸ Open if it holds your work).</source>
        <translation>{path} 指向 {target}。自动保存从不通过链接写入，以免覆盖其他文件。新的自动保存会把该链接移到一旁，并在原处写入新文件；它指向的文件不会被改动（如其中有您的工作，请用“打开场景”打开它）。</translation>
    </message>
    <message>
        <source>Start a fresh autosave</source>
        <translation>新建自动保存</translation>
    </message>
    <message>
        <source>Keep autosave off</source>
        <translation>保持自动保存关闭</translation>
    </message>
    <message>
        <source>Autosave is off for this session</source>
        <translation>本次会话自动保存已关闭</translation>
    </message>
    <message>
        <source>Could not start a fresh autosave</source>
        <translation>无法新建自动保存</translation>
    </message>
    <message>
        <source>Autosave restarted; the link was moved to {name}</source>
        <translation>自动保存已重新开始；链接已移至 {name}</translation>
    </message>
    <message>
        <source>Could not open the scenario</source>
        <translation>无法打开场景</translation>
    </message>
    <message>
        <source>Could not save the scenario</source>
        <translation>无法保存场景</translation>
    </message>
    <message>
        <source>Could not export the chart</source>
        <translation>无法导出图表</translation>
    </message>
    <message>
        <source>Could not export the proposal sheet</source>
        <translation>无法导出方案建议书</translation>
    </message>
    <message>
        <source>Could not export the proposal pack</source>
        <translation>无法导出方案资料包</translation>
    </message>
    <message>
        <source>Open scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>Save scenario as</source>
        <translation>场景另存为</translation>
    </message>
    <message>
        <source>PNG width</source>
        <translation>PNG 宽度</translation>
    </message>
    <message>
        <source>Width in pixels (height follows, 5 : 3):</source>
        <translation>宽度（像素，高度按 5 : 3 自动）：</translation>
    </message>
    <message>
        <source>Export the proposal sheet</source>
        <translation>导出方案建议书</translation>
    </message>
    <message>
        <source>Paper size</source>
        <translation>纸张大小</translation>
    </message>
    <message>
        <source>Paper:</source>
        <translation>纸张：</translation>
    </message>
    <message>
        <source>a folder to write the pack into</source>
        <translation>用于写入资料包的文件夹</translation>
    </message>
</context>
<context>
    <name>Financials</name>
    <message>
        <source>{fabric} against {baseline}: NPV {npv} at {rate} % a year, {payback}; {gpu_hour} per GPU-hour</source>
        <translation>{fabric} 对比 {baseline}：净现值 {npv}（年折现率 {rate} %），{payback}；每 GPU 小时 {gpu_hour}</translation>
    </message>
    <message>
        <source>{fabric}: {gpu_hour} per GPU-hour</source>
        <translation>{fabric}：每 GPU 小时 {gpu_hour}</translation>
    </message>
    <message>
        <source>pays back in {years} years</source>
        <translation>{years} 年回本</translation>
    </message>
    <message>
        <source>pays back in {months} months</source>
        <translation>{months} 个月回本</translation>
    </message>
    <message>
        <source>no extra capex to pay back</source>
        <translation>无额外资本支出需回本</translation>
    </message>
    <message>
        <source>never pays back (no yearly saving)</source>
        <translation>无法回本（每年无节省）</translation>
    </message>
    <message>
        <source>NPV: the extra capex against the money saved each year at the baseline&apos;s output, discounted at {rate} % a year (a guess); price per GPU-hour: the TCO over the GPU-hours delivered in the years at the duty cycle.</source>
        <translation>净现值：额外资本支出对比按基准产出每年节省的金额，按年折现率 {rate} %（估计值）折现；每 GPU 小时价格：总拥有成本除以使用年限内按占空比交付的 GPU 小时数。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Presets</source>
        <translation>预设(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>x-axis: {axis}</source>
        <translation>横轴：{axis}</translation>
    </message>
    <message>
        <source>Reset &amp;zoom</source>
        <translation>重置缩放(&amp;Z)</translation>
    </message>
    <message>
        <source>Fabric figures: </source>
        <translation>网络参数：</translation>
    </message>
    <message>
        <source>The source article&apos;s fabric table (midpoints of its ranges) and its case figures; file id: seed. The cluster&apos;s NICs and link speeds stay as they are.</source>
        <translation>来源文章的网络参数表（取其范围的中点）及其案例数据；文件标识：seed。集群的网卡和链路速率保持不变。</translation>
    </message>
    <message>
        <source>Measured and specified figures with their sources; file id: published. The cluster&apos;s NICs and link speeds stay as they are.</source>
        <translation>实测和规格数据，附来源；文件标识：published。集群的网卡和链路速率保持不变。</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Fabric What-If</source>
        <translation>关于 Fabric What-If(&amp;A)</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Load a case study or scale tier: sets every control at once</source>
        <translation>载入案例或规模档位：一次设置所有控件</translation>
    </message>
    <message>
        <source>x-axis</source>
        <translation>横轴</translation>
    </message>
    <message>
        <source>  x-axis: </source>
        <translation>  横轴：</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>TCO, same cluster (sweep)</source>
        <translation>同一集群 TCO（扫描）</translation>
    </message>
    <message>
        <source>Recommendation</source>
        <translation>推荐</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>GPU type</source>
        <translation>GPU 型号</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Fabric in focus</source>
        <translation>当前网络</translation>
    </message>
    <message>
        <source>Contiguous</source>
        <translation>连续（整叶）</translation>
    </message>
    <message>
        <source>Fragmented</source>
        <translation>分散（跨叶）</translation>
    </message>
    <message>
        <source>The fabric whose latency, loss and bandwidth the sliders below edit; each fabric keeps its own values</source>
        <translation>下方滑块编辑此网络的时延、丢包率和带宽；每种网络各自保留取值</translation>
    </message>
    <message>
        <source>Fabric</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>Go-back-N</source>
        <translation>回退 N 重传</translation>
    </message>
    <message>
        <source>Selective repeat</source>
        <translation>选择性重传</translation>
    </message>
    <message>
        <source>Link-level retry</source>
        <translation>链路层重传</translation>
    </message>
    <message>
        <source>Compare tuned RoCE</source>
        <translation>对比调优后的 RoCE</translation>
    </message>
    <message>
        <source>Apply to every fabric</source>
        <translation>应用到所有网络</translation>
    </message>
    <message>
        <source>On: a change of latency, loss or bandwidth sets that value for every fabric at once; off: only the fabric in focus</source>
        <translation>勾选：修改时延、丢包率或带宽会同时设定所有网络的取值；不勾选：只改当前网络</translation>
    </message>
    <message>
        <source>every fabric</source>
        <translation>所有网络</translation>
    </message>
    <message>
        <source>&amp;Reset to profile</source>
        <translation>恢复配置值(&amp;R)</translation>
    </message>
    <message>
        <source>Restore the profile set&apos;s values for the fabric in focus</source>
        <translation>把当前网络恢复为配置集中的取值</translation>
    </message>
    <message>
        <source>The published profile set has tuned RoCE (QP scaling, enhanced ECMP); this set does not</source>
        <translation>published 配置集含调优后的 RoCE（QP 扩展、增强 ECMP）；本配置集没有</translation>
    </message>
    <message>
        <source>Economics</source>
        <translation>经济性</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>货币</translation>
    </message>
    <message>
        <source>profile default ({currency})</source>
        <translation>配置默认值（{currency}）</translation>
    </message>
    <message>
        <source>Set by the scenario, not the profile; profile value ({profile}): {value}</source>
        <translation>由场景设定，而非配置集；配置集（{profile}）取值：{value}</translation>
    </message>
    <message>
        <source>From the {profile} profile set</source>
        <translation>取自 {profile} 配置集</translation>
    </message>
    <message>
        <source> — a guess, no published source</source>
        <translation> — 估计值，无公开出处</translation>
    </message>
    <message>
        <source>Article range: {lo} – {hi}</source>
        <translation>原文区间：{lo} – {hi}</translation>
    </message>
    <message>
        <source>Source: {source}</source>
        <translation>出处：{source}</translation>
    </message>
    <message>
        <source>engine default</source>
        <translation>引擎默认值</translation>
    </message>
    <message>
        <source>{fabric} · {profile} profile</source>
        <translation>{fabric} · {profile} 配置集</translation>
    </message>
    <message>
        <source> · edited</source>
        <translation> · 已修改</translation>
    </message>
    <message>
        <source> · values set by the scenario</source>
        <translation> · 取值由场景设定</translation>
    </message>
    <message>
        <source>Not set by the scenario: the {profile} profile set&apos;s value</source>
        <translation>场景未设定：使用 {profile} 配置集的取值</translation>
    </message>
    <message>
        <source>Edited; {origin} sets {value}</source>
        <translation>已修改；{origin} 中为 {value}</translation>
    </message>
    <message>
        <source>Value from {origin}</source>
        <translation>取值来自 {origin}</translation>
    </message>
    <message>
        <source>Allowed: {lo} – {hi} {unit}</source>
        <translation>允许范围：{lo} – {hi} {unit}</translation>
    </message>
    <message>
        <source> (edited)</source>
        <translation>（已修改）</translation>
    </message>
    <message>
        <source>{name} — profile: {profile} — {app}</source>
        <translation>{name} — 配置集：{profile} — {app}</translation>
    </message>
    <message>
        <source>&lt;b&gt;{name}&lt;/b&gt; &amp;nbsp;·&amp;nbsp; {nodes} × {gpn} {gpu} &amp;nbsp;·&amp;nbsp; {params} B params &amp;nbsp;·&amp;nbsp; profile: &lt;b&gt;{profile}&lt;/b&gt;</source>
        <translation>&lt;b&gt;{name}&lt;/b&gt; &amp;nbsp;·&amp;nbsp; {nodes} × {gpn} {gpu} &amp;nbsp;·&amp;nbsp; {params}B 参数 &amp;nbsp;·&amp;nbsp; 配置集：&lt;b&gt;{profile}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;At this point&lt;/b&gt;: {nodes} nodes × {gpus} GPUs, {params} B parameters, {tokens} B tokens</source>
        <translation>&lt;b&gt;当前点&lt;/b&gt;：{nodes} 个节点 × {gpus} 块 GPU，{params}B 参数，{tokens}B token</translation>
    </message>
    <message>
        <source>engine: cached result</source>
        <translation>引擎：缓存结果</translation>
    </message>
    <message>
        <source>engine {ms} ms</source>
        <translation>引擎 {ms} ms</translation>
    </message>
    <message>
        <source>About {app}</source>
        <translation>关于 {app}</translation>
    </message>
    <message>
        <source>&lt;b&gt;{app}&lt;/b&gt; {version}&lt;br&gt;How the network fabric of a GPU training cluster changes GPU utilisation, training duration and TCO.&lt;br&gt;&lt;br&gt;Engine: Megatron-LM compute, α–β collectives, 1F1B pipeline bubble, per-transport loss recovery. Every default names its source (hover a control).</source>
        <translation>&lt;b&gt;{app}&lt;/b&gt; {version}&lt;br&gt;GPU 训练集群的网络如何影响 GPU 利用率、训练时长和 TCO。&lt;br&gt;&lt;br&gt;引擎：Megatron-LM 计算模型、α–β 集合通信、1F1B 流水线气泡、按传输协议的丢包恢复。每个默认值都注明出处（将鼠标悬停在控件上查看）。</translation>
    </message>
    <message>
        <source>&apos;{name}&apos; ({path})</source>
        <translation>“{name}”（{path}）</translation>
    </message>
    <message>
        <source>scenario &apos;{name}&apos;</source>
        <translation>场景“{name}”</translation>
    </message>
    <message>
        <source>&amp;Presentation mode (stage view for a projector)</source>
        <translation>演示模式（投影用舞台视图）(&amp;P)</translation>
    </message>
</context>
<context>
    <name>MoeGapDialog</name>
    <message>
        <source>DeepSeek-V3 shape preset (EP 64 over 8 nodes)</source>
        <translation>DeepSeek-V3 形态预设(EP 64,跨 8 个节点)</translation>
    </message>
    <message>
        <source>Mixtral 8x22B shape preset (experts inside a node)</source>
        <translation>Mixtral 8x22B 形态预设(专家在节点内)</translation>
    </message>
    <message>
        <source>MoE vs dense: fabric gap</source>
        <translation>MoE 与稠密模型:网络差距</translation>
    </message>
    <message>
        <source>Current scenario</source>
        <translation>当前场景</translation>
    </message>
    <message>
        <source>Mixture-of-experts run</source>
        <translation>混合专家(MoE)训练</translation>
    </message>
    <message>
        <source>step time over the best fabric&apos;s</source>
        <translation>步时间 / 最佳网络的步时间</translation>
    </message>
    <message>
        <source>mixture of experts</source>
        <translation>混合专家(MoE)</translation>
    </message>
    <message>
        <source>dense twin (same active compute)</source>
        <translation>稠密对照(相同激活计算量)</translation>
    </message>
    <message>
        <source>{fabric}: MoE {moe}, dense {dense} of the best fabric&apos;s step time</source>
        <translation>{fabric}:MoE 为最佳网络步时间的 {moe},稠密模型为 {dense}</translation>
    </message>
    <message>
        <source>{name}. The MoE run&apos;s experts exchange every token (all-to-all) on the critical path; the dense twin does the same compute without it.</source>
        <translation>{name}。MoE 的专家在关键路径上交换每个 token(all-to-all);稠密对照做相同的计算,但没有这一通信。</translation>
    </message>
</context>
<context>
    <name>NcclTestsDialog</name>
    <message>
        <source>nccl-tests prediction</source>
        <translation>nccl-tests 预测</translation>
    </message>
    <message>
        <source>Compare with a log…</source>
        <translation>与日志比较…</translation>
    </message>
    <message>
        <source>Fabric</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <source>message size per rank</source>
        <translation>每个 rank 的消息大小</translation>
    </message>
    <message>
        <source>bus bandwidth (GB/s)</source>
        <translation>总线带宽 (GB/s)</translation>
    </message>
    <message>
        <source>predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Cannot read {path}: {error}</source>
        <translation>无法读取 {path}：{error}</translation>
    </message>
    <message>
        <source>The log ran over {log}; the fabric {fabric} runs over {transport}: the comparison is between different fabrics</source>
        <translation>日志的网络为 {log}；网络 {fabric} 为 {transport}：对比的是不同的网络</translation>
    </message>
    <message>
        <source>The log&apos;s run used {log} NICs per node; the fabric {fabric} has {n}: the comparison is between different fabrics</source>
        <translation>日志每节点使用 {log} 个网卡；网络 {fabric} 为 {n} 个：对比的是不同的网络</translation>
    </message>
    <message>
        <source>The log ran on {log} nodes; the prediction is for {n}</source>
        <translation>日志为 {log} 个节点；预测为 {n} 个</translation>
    </message>
    <message>
        <source>The log ran {log} ranks per node; the prediction is for {n}</source>
        <translation>日志每节点 {log} 个 rank；预测为 {n} 个</translation>
    </message>
    <message>
        <source>Algorithm {algorithm}, as the log forced it (NCCL_ALGO)</source>
        <translation>算法 {algorithm}，与日志设定的相同（NCCL_ALGO）</translation>
    </message>
    <message>
        <source>Predicted against measured busbw: median |error| {large} at ≥ 64 MiB (max {large_max}), {medium} at ≥ 1 MiB (max {medium_max}).</source>
        <translation>预测与实测 busbw 对比：≥ 64 MiB 时 |误差| 中位数 {large}（最大 {large_max}），≥ 1 MiB 时 {medium}（最大 {medium_max}）。</translation>
    </message>
</context>
<context>
    <name>Overrides</name>
    <message>
        <source> (article)</source>
        <translation>（原文）</translation>
    </message>
    <message>
        <source> (cluster)</source>
        <translation>（集群）</translation>
    </message>
    <message>
        <source>Set by the scenario over the {profile} profile: {list}</source>
        <translation>场景在 {profile} 参数集之上设定的值：{list}</translation>
    </message>
</context>
<context>
    <name>Pack</name>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>BOM</source>
        <translation>物料清单</translation>
    </message>
    <message>
        <source>TCO</source>
        <translation>TCO</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Discount on the bill of materials (fraction)</source>
        <translation>物料清单折扣（比例）</translation>
    </message>
    <message>
        <source>Electricity price per kWh</source>
        <translation>每千瓦时电价</translation>
    </message>
    <message>
        <source>Support and maintenance per year (fraction of capex)</source>
        <translation>每年维保费用（占资本支出的比例）</translation>
    </message>
    <message>
        <source>Years of ownership</source>
        <translation>使用年限</translation>
    </message>
    <message>
        <source>Discount rate of the NPV (fraction per year)</source>
        <translation>NPV 折现率（每年比例）</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入项</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Money in {currency}; edit the values in column B: every other sheet follows.</source>
        <translation>金额单位 {currency}；修改 B 列的数值，其他工作表随之更新。</translation>
    </message>
    <message>
        <source>Fabric</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Unit price</source>
        <translation>单价</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>Capex</source>
        <translation>资本支出</translation>
    </message>
    <message>
        <source>Energy per year (kWh)</source>
        <translation>每年耗电（kWh）</translation>
    </message>
    <message>
        <source>Energy per year</source>
        <translation>每年电费</translation>
    </message>
    <message>
        <source>Operations per year</source>
        <translation>每年运维</translation>
    </message>
    <message>
        <source>Support per year</source>
        <translation>每年维保</translation>
    </message>
    <message>
        <source>Opex per year</source>
        <translation>每年运营支出</translation>
    </message>
    <message>
        <source>Run with interruptions (h)</source>
        <translation>含中断的训练时长（小时）</translation>
    </message>
    <message>
        <source>Duty cycle</source>
        <translation>占空比</translation>
    </message>
    <message>
        <source>Cost per training run</source>
        <translation>单次训练成本</translation>
    </message>
    <message>
        <source>Training days (with interruptions)</source>
        <translation>训练天数（含中断）</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Network fabric proposal</source>
        <translation>网络方案建议书</translation>
    </message>
    <message>
        <source>Customer: {name}</source>
        <translation>客户：{name}</translation>
    </message>
    <message>
        <source>Prepared by: {name}</source>
        <translation>编制人：{name}</translation>
    </message>
    <message>
        <source>Date: {date} · valid until {until}</source>
        <translation>日期：{date} · 有效期至 {until}</translation>
    </message>
    <message>
        <source>Scenario fingerprint: {fp} · Fabric What-If {version}</source>
        <translation>场景指纹：{fp} · Fabric What-If {version}</translation>
    </message>
    <message>
        <source>Fabric figures: {name}</source>
        <translation>网络参数：{name}</translation>
    </message>
    <message>
        <source>TCO (same cluster)</source>
        <translation>TCO（同一集群）</translation>
    </message>
    <message>
        <source>NPV</source>
        <translation>净现值</translation>
    </message>
    <message>
        <source>Assumptions and sources</source>
        <translation>假设与来源</translation>
    </message>
    <message>
        <source>NPV at {rate} % a year; money saved at the baseline&apos;s output.</source>
        <translation>净现值按每年 {rate} % 折现；节省金额按基准网络的产出计算。</translation>
    </message>
    <message>
        <source>GPU servers</source>
        <translation>GPU 服务器</translation>
    </message>
    <message>
        <source>Network cards (NICs)</source>
        <translation>网卡</translation>
    </message>
    <message>
        <source>Switches (fat tree)</source>
        <translation>交换机（胖树）</translation>
    </message>
    <message>
        <source>Links with optics and cables</source>
        <translation>链路（光模块和线缆）</translation>
    </message>
    <message>
        <source>Network, priced per node (the article&apos;s price)</source>
        <translation>网络，按节点计价（文章的价格）</translation>
    </message>
    <message>
        <source>Discount (price book)</source>
        <translation>折扣（价格表）</translation>
    </message>
    <message>
        <source>How the fabrics compare as the scenario changes</source>
        <translation>场景变化时各网络的对比</translation>
    </message>
    <message>
        <source>Audit: the article&apos;s claims beside the engine</source>
        <translation>核对：原文结论与引擎结果对照</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <source>Prepared by</source>
        <translation>编制人</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Valid until</source>
        <translation>有效期至</translation>
    </message>
    <message>
        <source>{date} ({days} days)</source>
        <translation>{date}（{days} 天）</translation>
    </message>
    <message>
        <source>Scenario fingerprint</source>
        <translation>场景指纹</translation>
    </message>
    <message>
        <source>Fabric figures</source>
        <translation>网络参数</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>at once</source>
        <translation>立即</translation>
    </message>
    <message>
        <source>never</source>
        <translation>无法回收</translation>
    </message>
    <message>
        <source>{n} days</source>
        <translation>{n} 天</translation>
    </message>
    <message>
        <source>{n} months</source>
        <translation>{n} 个月</translation>
    </message>
    <message>
        <source>{n} years</source>
        <translation>{n} 年</translation>
    </message>
    <message>
        <source>Recommended fabric</source>
        <translation>推荐网络</translation>
    </message>
    <message>
        <source>Training run</source>
        <translation>单次训练</translation>
    </message>
    <message>
        <source>with expected interruptions</source>
        <translation>含预计的中断</translation>
    </message>
    <message>
        <source>Price per GPU-hour</source>
        <translation>每 GPU 小时价格</translation>
    </message>
    <message>
        <source>TCO over delivered GPU-hours</source>
        <translation>TCO 除以交付的 GPU 小时</translation>
    </message>
    <message>
        <source>costs no more up front than {fabric}</source>
        <translation>前期投入不高于 {fabric}</translation>
    </message>
    <message>
        <source>saves nothing at the same work</source>
        <translation>同等工作量下没有节省</translation>
    </message>
    <message>
        <source>NPV {money} at {rate} % a year</source>
        <translation>净现值 {money}（每年 {rate} % 折现）</translation>
    </message>
    <message>
        <source>against {fabric}</source>
        <translation>对比 {fabric}</translation>
    </message>
    <message>
        <source>{fabric}: {n} days</source>
        <translation>{fabric}：{n} 天</translation>
    </message>
    <message>
        <source>{fabric}: {money}</source>
        <translation>{fabric}：{money}</translation>
    </message>
    <message>
        <source>Saved per year, same work</source>
        <translation>每年节省（同等工作量）</translation>
    </message>
    <message>
        <source>{n} GPU-hours freed a year</source>
        <translation>每年腾出 {n} GPU 小时</translation>
    </message>
    <message>
        <source>Payback of the extra capex</source>
        <translation>额外投资回收期</translation>
    </message>
    <message>
        <source>Quantities from the topology model (NICs per node, the fat tree&apos;s switches, its links with their optics); unit prices are the component prices the economics uses, before any discount. Money in {currency}. The workbook (proposal.xlsx) recomputes these totals from editable prices.</source>
        <translation>数量来自拓扑模型（每节点网卡、胖树交换机、链路及其光模块）；单价为经济模型使用的部件价格，未计折扣。金额单位 {currency}。工作簿（proposal.xlsx）可按修改后的价格重新计算这些合计。</translation>
    </message>
    <message>
        <source>Bill of materials</source>
        <translation>物料清单</translation>
    </message>
    <message>
        <source>TCO, same cluster, {n} years</source>
        <translation>同一集群 {n} 年 TCO</translation>
    </message>
    <message>
        <source>Payback</source>
        <translation>回收期</translation>
    </message>
    <message>
        <source>Money for the same work is compared with {fabric} at its output (its runs per year); the TCO is the same cluster&apos;s over its years, whatever work it does. NPV at {rate} % a year of the extra capex against the yearly saving; price per GPU-hour: the TCO over the GPU-hours the cluster delivers at its duty cycle.</source>
        <translation>同等工作量的金额以 {fabric} 的产出（每年训练次数）为准进行比较；TCO 为同一集群在使用年限内的总成本，与完成的工作量无关。净现值：额外投资与每年节省按每年 {rate} % 折现；每 GPU 小时价格：TCO 除以集群按占空比交付的 GPU 小时。</translation>
    </message>
    <message>
        <source>Cost and financials</source>
        <translation>成本与财务指标</translation>
    </message>
    <message>
        <source>These figures are estimates by Fabric What-If {version} from published mechanisms and the sources above, for the scenario with fingerprint {fingerprint}. They are not measurements of your cluster, not a quotation and not a performance guarantee. Prices are list-price estimates before negotiation and taxes; confirm them with a supplier&apos;s quotation. Valid until {date}.</source>
        <translation>以上数据由 Fabric What-If {version} 依据公开机理和上述来源估算，适用于指纹为 {fingerprint} 的场景。它们不是对贵方集群的实测，不构成报价，也不构成性能保证。价格为议价和税前的目录价估计，请以供应商报价为准。有效期至 {date}。</translation>
    </message>
    <message>
        <source>Disclaimer</source>
        <translation>免责声明</translation>
    </message>
    <message>
        <source>page {n} of {total}</source>
        <translation>第 {n} 页，共 {total} 页</translation>
    </message>
    <message>
        <source>Publication titles stay in their original language.</source>
        <translation>出版物标题保留原文语言。</translation>
    </message>
</context>
<context>
    <name>PackDialog</name>
    <message>
        <source>Export proposal pack</source>
        <translation>导出方案资料包</translation>
    </message>
    <message>
        <source>&amp;Choose…</source>
        <translation>选择(&amp;C)…</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>optional: left blank on the cover</source>
        <translation>可选：留空则封面上空白</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <source>Prepared by</source>
        <translation>编制人</translation>
    </message>
    <message>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <source>Valid for</source>
        <translation>有效期</translation>
    </message>
    <message>
        <source>Paper</source>
        <translation>纸张</translation>
    </message>
    <message>
        <source>Writes proposal.pdf, proposal.pptx, proposal.xlsx and each chart as CSV and SVG into the folder, in the window&apos;s language.</source>
        <translation>将 proposal.pdf、proposal.pptx、proposal.xlsx 以及每张图表的 CSV 和 SVG 写入该文件夹，语言与窗口一致。</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Folder for the proposal pack</source>
        <translation>方案资料包的文件夹</translation>
    </message>
</context>
<context>
    <name>Plan</name>
    <message>
        <source> · {used} of {total} GPUs ({idle} idle)</source>
        <translation> · 用 {used}/{total} 块 GPU（闲置 {idle} 块）</translation>
    </message>
    <message>
        <source> · {used} GB a GPU, {left} GB of usable memory left</source>
        <translation> · 每块 GPU {used} GB，可用显存余 {left} GB</translation>
    </message>
    <message>
        <source>recompute {kind}</source>
        <translation>重计算 {kind}</translation>
    </message>
    <message>
        <source>{idle} of {total} GPUs idle</source>
        <translation>闲置 {idle}/{total} 块 GPU</translation>
    </message>
</context>
<context>
    <name>Plausibility</name>
    <message>
        <source>loss recovery (TCP window and tail-loss probes)</source>
        <translation>丢包恢复（TCP 窗口与尾部丢包探测）</translation>
    </message>
    <message>
        <source>loss recovery (retransmitting lost packets)</source>
        <translation>丢包恢复（重传丢失的数据包）</translation>
    </message>
    <message>
        <source>congested, slow communication</source>
        <translation>通信拥塞、缓慢</translation>
    </message>
    <message>
        <source>congestion (flows colliding on the switches&apos; uplinks)</source>
        <translation>拥塞（流在交换机上行链路上冲突）</translation>
    </message>
    <message>
        <source>data-parallel traffic (gradients, ZeRO gathers)</source>
        <translation>数据并行通信（梯度、ZeRO 参数收集）</translation>
    </message>
    <message>
        <source>tensor-parallel traffic</source>
        <translation>张量并行通信</translation>
    </message>
    <message>
        <source>pipeline traffic</source>
        <translation>流水线通信</translation>
    </message>
    <message>
        <source>expert all-to-all traffic</source>
        <translation>专家 all-to-all 通信</translation>
    </message>
    <message>
        <source>context-parallel ring traffic</source>
        <translation>上下文并行环形通信</translation>
    </message>
    <message>
        <source>the plan keeps to few nodes: on this network more would be slower</source>
        <translation>计划只用少数节点：在此网络上用更多节点反而更慢</translation>
    </message>
    <message>
        <source>host CPU limit of the transport</source>
        <translation>传输协议的主机 CPU 瓶颈</translation>
    </message>
    <message>
        <source>pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <source>GPUs left idle by the plan</source>
        <translation>并行方案使 GPU 空闲</translation>
    </message>
    <message>
        <source>interruptions (failures and restarts)</source>
        <translation>中断（故障和重启）</translation>
    </message>
    <message>
        <source>too few GPUs for the model and its tokens</source>
        <translation>GPU 太少，不足以承担该模型和训练量</translation>
    </message>
    <message>
        <source>TCP loss recovery</source>
        <translation>TCP 丢包恢复</translation>
    </message>
    <message>
        <source>retransmission</source>
        <translation>重传</translation>
    </message>
    <message>
        <source>slow communication</source>
        <translation>通信缓慢</translation>
    </message>
    <message>
        <source>congestion</source>
        <translation>拥塞</translation>
    </message>
    <message>
        <source>data-parallel traffic</source>
        <translation>数据并行通信</translation>
    </message>
    <message>
        <source>expert all-to-all</source>
        <translation>专家 all-to-all</translation>
    </message>
    <message>
        <source>context-parallel ring</source>
        <translation>上下文并行环</translation>
    </message>
    <message>
        <source>cannot scale out</source>
        <translation>无法横向扩展</translation>
    </message>
    <message>
        <source>host CPU</source>
        <translation>主机 CPU</translation>
    </message>
    <message>
        <source>idle GPUs</source>
        <translation>GPU 空闲</translation>
    </message>
    <message>
        <source>restarts</source>
        <translation>重启</translation>
    </message>
    <message>
        <source>too few GPUs</source>
        <translation>GPU 太少</translation>
    </message>
    <message>
        <source>stalls — {cause}</source>
        <translation>停滞 — {cause}</translation>
    </message>
    <message>
        <source>stalls</source>
        <translation>停滞</translation>
    </message>
    <message>
        <source>past the plausibility bound (a run over {days} days, over {times}× the best fabric, or MFU under {mfu} %): not a forecast; the engine&apos;s figure is {value}</source>
        <translation>超出可信范围（训练超过 {days} 天、超过最佳网络的 {times} 倍，或 MFU 低于 {mfu} %）：不构成预测；引擎的数值为 {value}</translation>
    </message>
    <message>
        <source>“stalls”: the engine&apos;s figure is past the plausibility bound (a run over {days} days, over {times}× the best fabric, or MFU under {mfu} %; a guess at where forecasts end), so it is not shown as a forecast</source>
        <translation>“停滞”：引擎的数值超出可信范围（训练超过 {days} 天、超过最佳网络的 {times} 倍，或 MFU 低于 {mfu} %；这是对预测边界的估计），因此不作为预测显示</translation>
    </message>
</context>
<context>
    <name>PointTable</name>
    <message>
        <source>Fabric</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <source>Interr.</source>
        <translation>中断</translation>
    </message>
    <message>
        <source>Capex</source>
        <translation>资本支出</translation>
    </message>
    <message>
        <source>TCO</source>
        <translation>TCO</translation>
    </message>
    <message>
        <source>Per run</source>
        <translation>单次成本</translation>
    </message>
    <message>
        <source>Fabric (colour as in the charts)</source>
        <translation>网络（颜色与图表一致）</translation>
    </message>
    <message>
        <source>Model FLOPs utilisation at this point</source>
        <translation>当前点的模型 FLOPs 利用率</translation>
    </message>
    <message>
        <source>Training days, with interruptions</source>
        <translation>训练天数（含中断）</translation>
    </message>
    <message>
        <source>Expected job interruptions during the run</source>
        <translation>训练期间预计的作业中断次数</translation>
    </message>
    <message>
        <source>Capital expenditure: servers and network</source>
        <translation>资本支出：服务器和网络</translation>
    </message>
    <message>
        <source>Total cost of ownership over the years set</source>
        <translation>设定年限内的总拥有成本</translation>
    </message>
    <message>
        <source>Cost of one training run (its share of the TCO)</source>
        <translation>单次训练的成本（分摊的 TCO）</translation>
    </message>
    <message>
        <source>with interruptions (without: {days} days)</source>
        <translation>含中断（不含中断：{days} 天）</translation>
    </message>
    <message>
        <source>{days} days, MFU {mfu}</source>
        <translation>{days} 天，MFU {mfu}</translation>
    </message>
    <message>
        <source>no plan fits</source>
        <translation>无可行方案</translation>
    </message>
    <message>
        <source>  (fabric in focus)</source>
        <translation>  （当前网络）</translation>
    </message>
    <message>
        <source>Model FLOPs utilisation; plan: {plan}</source>
        <translation>模型 FLOPs 利用率；并行方案：{plan}</translation>
    </message>
</context>
<context>
    <name>PriceBookDialog</name>
    <message>
        <source>Leaf switch</source>
        <translation>叶交换机</translation>
    </message>
    <message>
        <source>Spine switch</source>
        <translation>脊交换机</translation>
    </message>
    <message>
        <source>Core switch</source>
        <translation>核心交换机</translation>
    </message>
    <message>
        <source>NIC</source>
        <translation>网卡</translation>
    </message>
    <message>
        <source>Link with optics</source>
        <translation>链路（含光模块）</translation>
    </message>
    <message>
        <source>Optic</source>
        <translation>光模块</translation>
    </message>
    <message>
        <source>Cable</source>
        <translation>线缆</translation>
    </message>
    <message>
        <source>Price book</source>
        <translation>价格表</translation>
    </message>
    <message>
        <source>Prices of one item, in the currency below. Spine and core switches left at &quot;as leaf&quot; cost the leaf switch&apos;s price; a link is priced with its optics and cable, or as an optic and a cable when both are given (each link end has one optic).</source>
        <translation>单件价格，币种见下。脊、核心交换机为“同叶”时按叶交换机价格计；链路按含光模块和线缆的价格计，或在两者都给出时按光模块和线缆分别计（每个链路端一个光模块）。</translation>
    </message>
    <message>
        <source>Price the network from its components (not per node)</source>
        <translation>按组件计算网络价格（而非按节点）</translation>
    </message>
    <message>
        <source>The article&apos;s inputs price the whole network per node; the component prices below count only when the network is priced from its components.</source>
        <translation>文章输入按节点计算整个网络的价格；只有按组件计价时，下面的组件价格才计入。</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <source>Discount on the bill of materials</source>
        <translation>物料清单折扣</translation>
    </message>
    <message>
        <source>Support and maintenance per year (share of capex)</source>
        <translation>每年支持与维护（占资本支出的比例）</translation>
    </message>
    <message>
        <source>as leaf</source>
        <translation>同叶</translation>
    </message>
    <message>
        <source>in the link</source>
        <translation>含在链路中</translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation>应用(&amp;A)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>not given</source>
        <translation>未给出</translation>
    </message>
</context>
<context>
    <name>ProfileSet</name>
    <message>
        <source>Article&apos;s inputs</source>
        <translation>文章的输入</translation>
    </message>
    <message>
        <source>Measured (published)</source>
        <translation>实测（已发表）</translation>
    </message>
</context>
<context>
    <name>Proposal</name>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>{n} node × {g} {gpu} = {total} GPUs</source>
        <translation>{n} 个节点 × {g} 块 {gpu} = {total} 块 GPU</translation>
    </message>
    <message>
        <source>{n} nodes × {g} {gpu} = {total} GPUs</source>
        <translation>{n} 个节点 × {g} 块 {gpu} = {total} 块 GPU</translation>
    </message>
    <message>
        <source>{p} B parameters</source>
        <translation>{p}B 参数</translation>
    </message>
    <message>
        <source>{n} layers</source>
        <translation>{n} 层</translation>
    </message>
    <message>
        <source>sequence {n}</source>
        <translation>序列长度 {n}</translation>
    </message>
    <message>
        <source>global batch {n}</source>
        <translation>全局批大小 {n}</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>{t} B tokens, recompute {r}</source>
        <translation>{t}B token，重计算 {r}</translation>
    </message>
    <message>
        <source>searched per plan</source>
        <translation>随并行方案搜索</translation>
    </message>
    <message>
        <source>Fabrics</source>
        <translation>网络方案</translation>
    </message>
    <message>
        <source>{n} years</source>
        <translation>{n} 年</translation>
    </message>
    <message>
        <source>duty cycle {n} %</source>
        <translation>占空比 {n} %</translation>
    </message>
    <message>
        <source>Economics</source>
        <translation>经济性</translation>
    </message>
    <message>
        <source>run within {n} days</source>
        <translation>{n} 天内完成训练</translation>
    </message>
    <message>
        <source>TCO budget {money}</source>
        <translation>TCO 预算 {money}</translation>
    </message>
    <message>
        <source>Goals</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>micro-batch</source>
        <translation>微批</translation>
    </message>
    <message>
        <source>no plan fits in memory</source>
        <translation>显存放不下任何并行方案</translation>
    </message>
    <message>
        <source>Profile set “{name}”</source>
        <translation>参数集“{name}”</translation>
    </message>
    <message>
        <source>{transport} figures of the profile set</source>
        <translation>参数集中的 {transport} 数据</translation>
    </message>
    <message>
        <source>; from this scenario: </source>
        <translation>；取自本场景：</translation>
    </message>
    <message>
        <source>{fabric}: {gbps} Gb/s × {nics}, {lat} µs, loss {loss} %</source>
        <translation>{fabric}：{gbps} Gb/s × {nics}，{lat} µs，丢包率 {loss} %</translation>
    </message>
    <message>
        <source>Every fabric</source>
        <translation>所有网络</translation>
    </message>
    <message>
        <source>{gpu}: prices and power</source>
        <translation>{gpu}：价格与功耗</translation>
    </message>
    <message>
        <source>Reliability defaults</source>
        <translation>可靠性默认值</translation>
    </message>
    <message>
        <source>Economics defaults</source>
        <translation>经济性默认值</translation>
    </message>
    <message>
        <source>Network fabric proposal</source>
        <translation>网络方案建议书</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Recommendation</source>
        <translation>推荐</translation>
    </message>
    <message>
        <source>The engine’s recommendation is not available for this scenario.</source>
        <translation>本场景暂无引擎推荐。</translation>
    </message>
    <message>
        <source>Article’s decision tree: {fabric} (rule {rule}: {reason}).</source>
        <translation>原文决策树：{fabric}（规则 {rule}：{reason}）。</translation>
    </message>
    <message>
        <source>No fabric yet</source>
        <translation>暂无可选网络</translation>
    </message>
    <message>
        <source>No parallel plan fits in GPU memory for any compared fabric in this scenario: add nodes, choose GPUs with more memory or a smaller model.</source>
        <translation>本场景下，所比较的网络都没有能放进 GPU 显存的并行方案：请增加节点、选用显存更大的 GPU 或更小的模型。</translation>
    </message>
    <message>
        <source>Equivalent: {fabrics}</source>
        <translation>相当：{fabrics}</translation>
    </message>
    <message>
        <source>Engine: {criterion}; {verdict}.</source>
        <translation>引擎：{criterion}；{verdict}。</translation>
    </message>
    <message>
        <source>The tree and the engine agree on the fabric: the article’s choice is one of the equivalent fabrics.</source>
        <translation>决策树与引擎选择的网络一致：文章的选择是相当的网络之一。</translation>
    </message>
    <message>
        <source>* Training days including expected interruptions and restarts. Money in {currency}. The recommended fabric (or the equivalent ones) in bold.</source>
        <translation>* 训练天数包含预计的中断和重启。金额单位 {currency}。推荐的网络（或相当的几种）以粗体显示。</translation>
    </message>
    <message>
        <source>fabric figures: {name}</source>
        <translation>网络参数：{name}</translation>
    </message>
    <message>
        <source>Why they differ:</source>
        <translation>二者不同的原因：</translation>
    </message>
    <message>
        <source>The tree and the engine agree on the fabric.</source>
        <translation>决策树与引擎选择的网络一致。</translation>
    </message>
    <message>
        <source>recompute none</source>
        <translation>不重计算</translation>
    </message>
    <message>
        <source>recompute selective</source>
        <translation>选择性重计算</translation>
    </message>
    <message>
        <source>recompute full</source>
        <translation>完全重计算</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>Break-even, {a} vs {b}</source>
        <translation>盈亏平衡点：{a} 对比 {b}</translation>
    </message>
    <message>
        <source>Fabric</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Days*</source>
        <translation>天数*</translation>
    </message>
    <message>
        <source>Interr.</source>
        <translation>中断</translation>
    </message>
    <message>
        <source>Capex</source>
        <translation>资本支出</translation>
    </message>
    <message>
        <source>TCO</source>
        <translation>TCO</translation>
    </message>
    <message>
        <source>Per run</source>
        <translation>单次成本</translation>
    </message>
    <message>
        <source>Parallel plan</source>
        <translation>并行方案</translation>
    </message>
    <message>
        <source>At this scenario</source>
        <translation>本场景下</translation>
    </message>
    <message>
        <source>A/B compare: A “{a}” (pinned, dashed on the charts) against B “{b}” (this sheet)</source>
        <translation>A/B 对比：A“{a}”（已固定，图中虚线）对比 B“{b}”（本页）</translation>
    </message>
    <message>
        <source>Δ = B − A; green: better for B, red: worse.</source>
        <translation>Δ = B − A；绿色：B 更优，红色：B 更差。</translation>
    </message>
    <message>
        <source>Claim</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Article</source>
        <translation>原文</translation>
    </message>
    <message>
        <source>Engine, seed</source>
        <translation>引擎（种子参数）</translation>
    </message>
    <message>
        <source>Engine, published</source>
        <translation>引擎（公开参数）</translation>
    </message>
    <message>
        <source>The article’s claims beside the engine (case study “{name}”, as published: this scenario’s edits are not in this table)</source>
        <translation>原文结论与引擎结果对照（案例“{name}”，按原文参数：本场景的修改不在此表中）</translation>
    </message>
    <message>
        <source>The article’s claims beside the engine (case study “{name}”)</source>
        <translation>原文结论与引擎结果对照（案例“{name}”）</translation>
    </message>
    <message>
        <source>Assumptions and sources</source>
        <translation>假设与来源</translation>
    </message>
    <message>
        <source>a guess: no published source gives this figure; replace it with your measurement in the app.</source>
        <translation>估计值：没有公开来源给出此数值；请在应用中替换为您的实测值。</translation>
    </message>
    <message>
        <source>Profile set: {name}</source>
        <translation>参数集：{name}</translation>
    </message>
    <message>
        <source> ({n} seeded samples, seed {seed})</source>
        <translation>（{n} 个固定种子样本，种子 {seed}）</translation>
    </message>
    <message>
        <source>whole-number plan step</source>
        <translation>整除规则导致的方案跳变</translation>
    </message>
    <message>
        <source>Generated by Fabric What-If {version} on {date}</source>
        <translation>由 Fabric What-If {version} 于 {date} 生成</translation>
    </message>
    <message>
        <source>scenario file {name}</source>
        <translation>场景文件 {name}</translation>
    </message>
    <message>
        <source>Engine estimates from published mechanisms, not measurements of your cluster.</source>
        <translation>以上为引擎依据公开机理的估算，并非对贵方集群的实测。</translation>
    </message>
</context>
<context>
    <name>RecommendationPanel</name>
    <message>
        <source>Article audit: the article&apos;s figures beside the engine&apos;s</source>
        <translation>原文核对：原文数据与引擎结果对照</translation>
    </message>
    <message>
        <source>For the architect: every figure the article states for this case study beside the engine&apos;s, and what each counterfactual (“same work”) figure compares. Off for a customer; the proposal sheet includes it only when this is on.</source>
        <translation>供架构师使用：本案例中原文给出的每个数据与引擎结果对照，并说明每个反事实（“同等工作量”）数据比较的是什么。面向客户时关闭；仅在勾选时建议书才包含此表。</translation>
    </message>
    <message>
        <source>Claim</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Article</source>
        <translation>原文</translation>
    </message>
    <message>
        <source>Engine: seed · published</source>
        <translation>引擎：seed · published</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>No recommendation: {error}</source>
        <translation>无法给出推荐：{error}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Article&apos;s decision tree:&lt;/b&gt;</source>
        <translation>&lt;b&gt;原文决策树：&lt;/b&gt;</translation>
    </message>
    <message>
        <source>rule {rule}: {reason}</source>
        <translation>规则 {rule}：{reason}</translation>
    </message>
    <message>
        <source>a tie between {fabrics}</source>
        <translation>{fabrics} 不分高下</translation>
    </message>
    <message>
        <source>&lt;b&gt;Engine&apos;s pick:&lt;/b&gt;</source>
        <translation>&lt;b&gt;引擎推荐：&lt;/b&gt;</translation>
    </message>
    <message>
        <source>✔ They agree on the fabric; the article&apos;s figures are another matter (the audit compares them).</source>
        <translation>✔ 两者选择的网络一致；文章的数字另当别论（核对表对比了这些数字）。</translation>
    </message>
    <message>
        <source>✔ They agree on the fabric: the article&apos;s choice is one of the equivalent fabrics (the audit compares the article&apos;s figures).</source>
        <translation>✔ 两者选择的网络一致：文章的选择是相当的网络之一（核对表对比了文章的数字）。</translation>
    </message>
    <message>
        <source>They differ:</source>
        <translation>两者不同：</translation>
    </message>
    <message>
        <source>&lt;b&gt;Article vs engine&lt;/b&gt; — {preset} as published (unaffected by your edits)</source>
        <translation>&lt;b&gt;原文与引擎对比&lt;/b&gt; — 按原文发布的 {preset}（不受您的修改影响）</translation>
    </message>
</context>
<context>
    <name>Sources</name>
    <message>
        <source>NVIDIA A10 datasheet: 288 third-generation Tensor Cores, four per Ampere SM (derived)</source>
        <translation>NVIDIA A10 数据手册：288 个第三代 Tensor Core，每个 Ampere SM 四个（推算）</translation>
    </message>
    <message>
        <source>A100&apos;s BF16 value (Ampere, the same tensor cores; guess)</source>
        <translation>取 A100 的 BF16 值（同为 Ampere 架构、相同的 Tensor Core；估计值）</translation>
    </message>
    <message>
        <source>NVIDIA A10 datasheet (125 TFLOP/s BF16 dense, 24 GB GDDR6, 600 GB/s, 150 W); PCIe Gen4 x16 = 32 GB/s per direction (PCI-SIG)</source>
        <translation>NVIDIA A10 数据手册（BF16 稠密 125 TFLOP/s，24 GB GDDR6，600 GB/s，150 W）；PCIe Gen4 x16 = 每方向 32 GB/s（PCI-SIG）</translation>
    </message>
    <message>
        <source>guesses: a 2U server with 4 x A10 (~USD 3,300 each) ~USD 25k; host (CPUs, fans, drives) 600 W; A10 cloud hour ~USD 0.75</source>
        <translation>估计值：一台装 4 x A10（每块约 USD 3,300）的 2U 服务器约 USD 25k；主机（CPU、风扇、硬盘）600 W；A10 云端每小时约 USD 0.75</translation>
    </message>
    <message>
        <source>NVIDIA A100 Tensor Core GPU Architecture whitepaper (108 SMs)</source>
        <translation>NVIDIA A100 Tensor Core GPU Architecture 白皮书（108 个 SM）</translation>
    </message>
    <message>
        <source>fitted on the Megatron-LM runs on A100 (Narayanan et al. 2021; Korthikanti et al. 2022)</source>
        <translation>按 A100 上的 Megatron-LM 训练实例拟合（Narayanan et al. 2021；Korthikanti et al. 2022）</translation>
    </message>
    <message>
        <source>NVIDIA A100 datasheet (312 TFLOP/s BF16 dense, 1,555 GB/s, 400 W, NVLink 600 GB/s bidirectional); DGX A100 user guide (2 x AMD EPYC 7742, 128 cores); NVIDIA/nccl issue 1048 (232.5 GB/s busbw)</source>
        <translation>NVIDIA A100 数据手册（BF16 稠密 312 TFLOP/s，1,555 GB/s，400 W，NVLink 双向 600 GB/s）；DGX A100 用户指南（2 x AMD EPYC 7742，128 核）；NVIDIA/nccl issue 1048（busbw 232.5 GB/s）</translation>
    </message>
    <message>
        <source>NVIDIA DGX A100 launch price USD 199,000 (NVIDIA, May 2020); DGX A100 user guide 6.5 kW max minus 8 x 400 W = 3.3 kW host (derived); cloud A100 USD 1.49-2.49 per GPU-hour (price trackers citing SemiAnalysis, low end for 40 GB)</source>
        <translation>NVIDIA DGX A100 发布价 USD 199,000（NVIDIA，2020 年 5 月）；DGX A100 用户指南：最大 6.5 kW 减去 8 x 400 W = 主机 3.3 kW（推算）；云端 A100 每 GPU 小时 USD 1.49-2.49（引用 SemiAnalysis 的价格追踪网站，40 GB 取低端）</translation>
    </message>
    <message>
        <source>NVIDIA A100 datasheet (312 TFLOP/s BF16 dense, 2,039 GB/s, 400 W, NVLink 600 GB/s bidirectional); DGX A100 user guide (128 cores); NVIDIA/nccl issue 1048 (232.5 GB/s busbw)</source>
        <translation>NVIDIA A100 数据手册（BF16 稠密 312 TFLOP/s，2,039 GB/s，400 W，NVLink 双向 600 GB/s）；DGX A100 用户指南（128 核）；NVIDIA/nccl issue 1048（busbw 232.5 GB/s）</translation>
    </message>
    <message>
        <source>server price as DGX A100 40 GB launch (USD 199,000, NVIDIA May 2020; guess for 80 GB); DGX A100 6.5 kW max minus 8 x 400 W = 3.3 kW host (derived); cloud A100-80GB USD 1.49-2.49 per GPU-hour, midpoint (price trackers citing SemiAnalysis)</source>
        <translation>服务器价格取 DGX A100 40 GB 的发布价（USD 199,000，NVIDIA 2020 年 5 月；80 GB 为估计值）；DGX A100 最大 6.5 kW 减去 8 x 400 W = 主机 3.3 kW（推算）；云端 A100-80GB 每 GPU 小时 USD 1.49-2.49，取中值（引用 SemiAnalysis 的价格追踪网站）</translation>
    </message>
    <message>
        <source>NVIDIA H100 Tensor Core GPU Architecture whitepaper (H100 SXM5: 132 SMs)</source>
        <translation>NVIDIA H100 Tensor Core GPU Architecture 白皮书（H100 SXM5：132 个 SM）</translation>
    </message>
    <message>
        <source>NVIDIA H100 Tensor Core GPU datasheet (SXM: FP8 3,958 TFLOP/s with sparsity, 1,979 dense)</source>
        <translation>NVIDIA H100 Tensor Core GPU 数据手册（SXM：FP8 稀疏 3,958 TFLOP/s，稠密 1,979）</translation>
    </message>
    <message>
        <source>NVIDIA H100 datasheet (989 TFLOP/s BF16 dense, 3.35 TB/s, 700 W, NVLink 900 GB/s bidirectional); DGX H100 user guide (2 x Xeon 8480C, 112 cores); nccl-tests issue 212 (~370 GB/s busbw)</source>
        <translation>NVIDIA H100 数据手册（BF16 稠密 989 TFLOP/s，3.35 TB/s，700 W，NVLink 双向 900 GB/s）；DGX H100 用户指南（2 x Xeon 8480C，112 核）；nccl-tests issue 212（busbw 约 370 GB/s）</translation>
    </message>
    <message>
        <source>8 x H100 server with 8 x 400G InfiniBand USD 310-317k (Thinkmate quote in the &apos;H100 Freakonomics&apos; spreadsheet, Aug 2024), midpoint 313.5k minus 8 compute NICs at USD 2,000 (guess) = 297.5k without the fabric NICs; DGX H100 10.2 kW max minus 8 x 700 W = 4.6 kW host (derived); cloud H100 USD 2.49-3.99 per GPU-hour, midpoint</source>
        <translation>配 8 x 400G InfiniBand 的 8 x H100 服务器 USD 310-317k（&apos;H100 Freakonomics&apos; 电子表格中的 Thinkmate 报价，2024 年 8 月），中值 313.5k 减去 8 块计算网卡、每块 USD 2,000（估计值）= 不含网络网卡 297.5k；DGX H100 最大 10.2 kW 减去 8 x 700 W = 主机 4.6 kW（推算）；云端 H100 每 GPU 小时 USD 2.49-3.99，取中值</translation>
    </message>
    <message>
        <source>NVIDIA H100 Tensor Core GPU Architecture whitepaper (H100 PCIe: 114 SMs)</source>
        <translation>NVIDIA H100 Tensor Core GPU Architecture 白皮书（H100 PCIe：114 个 SM）</translation>
    </message>
    <message>
        <source>NVIDIA H100 Tensor Core GPU datasheet (PCIe: FP8 3,026 TFLOP/s with sparsity, 1,513 dense)</source>
        <translation>NVIDIA H100 Tensor Core GPU 数据手册（PCIe：FP8 稀疏 3,026 TFLOP/s，稠密 1,513）</translation>
    </message>
    <message>
        <source>as H100 SXM (the same Hopper tensor cores at a lower clock, already in its peak; guess)</source>
        <translation>同 H100 SXM（相同的 Hopper Tensor Core，时钟较低，已计入其峰值；估计值）</translation>
    </message>
    <message>
        <source>NVIDIA H100 PCIe product brief PB-11133 (756 TFLOP/s BF16 dense, 2 TB/s, 350 W); PCIe Gen5 x16 = 64 GB/s per direction (PCI-SIG)</source>
        <translation>NVIDIA H100 PCIe 产品简介 PB-11133（BF16 稠密 756 TFLOP/s，2 TB/s，350 W）；PCIe Gen5 x16 = 每方向 64 GB/s（PCI-SIG）</translation>
    </message>
    <message>
        <source>guesses: 8 x H100 PCIe server ~USD 240k; host 2 kW; GPU-hour USD 2.50</source>
        <translation>估计值：8 x H100 PCIe 服务器约 USD 240k；主机 2 kW；每 GPU 小时 USD 2.50</translation>
    </message>
    <message>
        <source>as H100 SXM5: the same GH100 configuration with more HBM (guess)</source>
        <translation>同 H100 SXM5：相同的 GH100 配置，HBM 更多（估计值）</translation>
    </message>
    <message>
        <source>NVIDIA H200 Tensor Core GPU datasheet (FP8 3,958 TFLOP/s with sparsity, 1,979 dense)</source>
        <translation>NVIDIA H200 Tensor Core GPU 数据手册（FP8 稀疏 3,958 TFLOP/s，稠密 1,979）</translation>
    </message>
    <message>
        <source>as H100 SXM: the same GH100 compute, more and faster HBM (NVIDIA H200 datasheet); guess</source>
        <translation>同 H100 SXM：相同的 GH100 算力，HBM 更多更快（NVIDIA H200 数据手册）；估计值</translation>
    </message>
    <message>
        <source>NVIDIA H200 datasheet (989 TFLOP/s BF16 dense, 141 GB HBM3e, 4.8 TB/s, up to 700 W, NVLink 900 GB/s bidirectional); busbw fraction as H100 (nccl-tests issue 212)</source>
        <translation>NVIDIA H200 数据手册（BF16 稠密 989 TFLOP/s，141 GB HBM3e，4.8 TB/s，最高 700 W，NVLink 双向 900 GB/s）；busbw 比例同 H100（nccl-tests issue 212）</translation>
    </message>
    <message>
        <source>guesses: 8 x H200 server ~USD 350k; host power as DGX H100 (4.6 kW, derived); GPU-hour USD 3.80</source>
        <translation>估计值：8 x H200 服务器约 USD 350k；主机功率同 DGX H100（4.6 kW，推算）；每 GPU 小时 USD 3.80</translation>
    </message>
    <message>
        <source>two dies of 74 SMs as reported for B200 (guess)</source>
        <translation>据报道 B200 为两颗各 74 个 SM 的裸片（估计值）</translation>
    </message>
    <message>
        <source>NVIDIA DGX B200 datasheet (72 PFLOP/s FP8 training for 8 GPUs: 9 per GPU with sparsity, 4.5 dense)</source>
        <translation>NVIDIA DGX B200 数据手册（8 个 GPU 的 FP8 训练算力 72 PFLOP/s：每 GPU 稀疏 9，稠密 4.5）</translation>
    </message>
    <message>
        <source>NVIDIA DGX B200 datasheet (72 PFLOP/s FP8 dense per 8 GPUs -&gt; 2.25 PFLOP/s BF16 dense per GPU, 1,440 GB total, 64 TB/s HBM3e total, NVLink 1.8 TB/s bidirectional, 2 x Xeon 8570 = 112 cores); 1,000 W per GPU in HGX B200</source>
        <translation>NVIDIA DGX B200 数据手册（每 8 个 GPU FP8 稠密 72 PFLOP/s -&gt; 每 GPU BF16 稠密 2.25 PFLOP/s，总计 1,440 GB，HBM3e 总带宽 64 TB/s，NVLink 双向 1.8 TB/s，2 x Xeon 8570 = 112 核）；HGX B200 中每 GPU 1,000 W</translation>
    </message>
    <message>
        <source>guesses: 8 x B200 server ~USD 500k; DGX B200 ~14.3 kW max minus 8 x 1,000 W = 6.3 kW host (derived, datasheet figure not in the reference); GPU-hour USD 5.00</source>
        <translation>估计值：8 x B200 服务器约 USD 500k；DGX B200 最大约 14.3 kW 减去 8 x 1,000 W = 主机 6.3 kW（推算，该数据手册数值不在参考资料中）；每 GPU 小时 USD 5.00</translation>
    </message>
    <message>
        <source>as H100 SXM5: the same GH100 compute, NVLink cut (guess)</source>
        <translation>同 H100 SXM5：相同的 GH100 算力，NVLink 被削减（估计值）</translation>
    </message>
    <message>
        <source>NVIDIA H800 SXM5 product brief (the H100 SXM5&apos;s compute: FP8 3,958 TFLOP/s with sparsity, 1,979 dense)</source>
        <translation>NVIDIA H800 SXM5 产品简介（算力同 H100 SXM5：FP8 稀疏 3,958 TFLOP/s，稠密 1,979）</translation>
    </message>
    <message>
        <source>as H100 SXM: the same GH100 compute and clocks (only NVLink is cut); guess</source>
        <translation>同 H100 SXM：相同的 GH100 算力与时钟（仅削减 NVLink）；估计值</translation>
    </message>
    <message>
        <source>NVIDIA H800 SXM5 product brief (989 TFLOP/s BF16 dense, 80 GB HBM3, 3.35 TB/s, 700 W, NVLink 400 GB/s bidirectional); DeepSeek-AI 2024, DeepSeek-V3 technical report §3.1-3.2 (8 x H800 per node over NVLink and NVSwitch, NVLink 160 GB/s achieved -&gt; 0.8 of 200 GB/s per direction; one 400 Gb/s InfiniBand NIC per GPU, 50 GB/s); NVLS busbw as H100&apos;s 480 GB/s x 200/450 (derived, guess)</source>
        <translation>NVIDIA H800 SXM5 产品简介（BF16 稠密 989 TFLOP/s，80 GB HBM3，3.35 TB/s，700 W，NVLink 双向 400 GB/s）；DeepSeek-AI 2024，DeepSeek-V3 技术报告 §3.1-3.2（每节点 8 x H800，经 NVLink 与 NVSwitch 互联，NVLink 实测 160 GB/s -&gt; 每方向 200 GB/s 的 0.8；每个 GPU 一块 400 Gb/s InfiniBand 网卡，50 GB/s）；NVLS busbw 取 H100 的 480 GB/s x 200/450（推算，估计值）</translation>
    </message>
    <message>
        <source>server price as the 8 x H100 server (guess); host power as DGX H100 (4.6 kW, derived); USD 2 per GPU-hour: the H800 rental price DeepSeek-AI assume in the DeepSeek-V3 report (§1)</source>
        <translation>服务器价格同 8 x H100 服务器（估计值）；主机功率同 DGX H100（4.6 kW，推算）；每 GPU 小时 USD 2：DeepSeek-AI 在 DeepSeek-V3 报告中假设的 H800 租用价格（§1）</translation>
    </message>
    <message>
        <source>as reported for H20 (guess)</source>
        <translation>据 H20 的公开报道（估计值）</translation>
    </message>
    <message>
        <source>NVIDIA HGX H20 specification (FP8 296 TFLOP/s dense), as reported by SemiAnalysis (Nov 2023) and OEM datasheets</source>
        <translation>NVIDIA HGX H20 规格（FP8 稠密 296 TFLOP/s），据 SemiAnalysis（2023 年 11 月）报道及 OEM 数据手册</translation>
    </message>
    <message>
        <source>as H100 SXM (Hopper tensor cores; with 4 TB/s per 148 TFLOP/s its GEMMs are further from the memory bound, so likely higher); guess</source>
        <translation>同 H100 SXM（Hopper Tensor Core；每 148 TFLOP/s 有 4 TB/s 带宽，其 GEMM 离内存瓶颈更远，实际可能更高）；估计值</translation>
    </message>
    <message>
        <source>NVIDIA HGX H20 specification (148 TFLOP/s BF16 dense, 296 FP8, 96 GB HBM3, 4.0 TB/s, 400 W, NVLink 900 GB/s bidirectional), as reported by SemiAnalysis (Nov 2023) and OEM datasheets; HGX 8-GPU board with one 400 Gb/s NIC per GPU as HGX H100; NVLink busbw fraction and NVLS as H100 (nccl-tests issue 212)</source>
        <translation>NVIDIA HGX H20 规格（BF16 稠密 148 TFLOP/s，FP8 296，96 GB HBM3，4.0 TB/s，400 W，NVLink 双向 900 GB/s），据 SemiAnalysis（2023 年 11 月）报道及 OEM 数据手册；HGX 8-GPU 主板，每个 GPU 一块 400 Gb/s 网卡，同 HGX H100；NVLink busbw 比例与 NVLS 同 H100（nccl-tests issue 212）</translation>
    </message>
    <message>
        <source>guesses: 8 x H20 server ~USD 130k (H20 ~USD 12-15k each, reported); host power as DGX H100 (4.6 kW); GPU-hour USD 1.00</source>
        <translation>估计值：8 x H20 服务器约 USD 130k（据报道 H20 每块约 USD 12-15k）；主机功率同 DGX H100（4.6 kW）；每 GPU 小时 USD 1.00</translation>
    </message>
    <message>
        <source>as B200 (guess)</source>
        <translation>同 B200（估计值）</translation>
    </message>
    <message>
        <source>NVIDIA GB200 NVL72 datasheet (FP8 720 PFLOP/s with sparsity for 72 GPUs: 10 per GPU, 5 dense)</source>
        <translation>NVIDIA GB200 NVL72 数据手册（72 个 GPU 的 FP8 稀疏算力 720 PFLOP/s：每 GPU 稀疏 10，稠密 5）</translation>
    </message>
    <message>
        <source>BF16: 0.643, the value that minimises the largest error over the published H100 BF16 runs the engine can describe: Megatron-Core GPT-3 175B strong scaling, 47 % MFU on 96 GPUs and 42 % on 4,608 (NVIDIA Megatron-LM README) and Llama 3 405B, 430 and 400 TFLOP/s on 8,192 and 16,384 GPUs (Dubey et al. 2024, Table 4): +12 %, 0 %, -8 %, -11 % (model/scale.py terms and NVLink SHARP&apos;s medium-size costs included); FP8: 0.577, likewise over NVIDIA NeMo 24.07 and Megatron-Bridge 25.11 DGX-H100 FP8 recipes (their attention core in BF16): at most 6 % (fits)</source>
        <translation>BF16：0.643，即在引擎可描述的已发表 H100 BF16 训练实例上使最大误差最小的值：Megatron-Core GPT-3 175B 强扩展，96 个 GPU 上 MFU 47 %、4,608 个上 42 %（NVIDIA Megatron-LM README），以及 Llama 3 405B 在 8,192 与 16,384 个 GPU 上 430 与 400 TFLOP/s（Dubey et al. 2024，表 4）：+12 %、0 %、-8 %、-11 %（含 model/scale.py 各项及 NVLink SHARP 中等消息的时间）；FP8：0.577，同样按 NVIDIA NeMo 24.07 与 Megatron-Bridge 25.11 的 DGX-H100 FP8 配方拟合（其注意力核心为 BF16）：误差至多 6 %（拟合）</translation>
    </message>
    <message>
        <source>FP8: H100&apos;s 0.577 x 0.96, the mean ratio of model TFLOP/s per FP8 peak of the same FP8-CS recipes on DGX-B200 and DGX-H100 (Megatron-Bridge 25.11 performance summary: Llama 3 8B 1,576 of 4,500 against 744 of 1,979, x 0.93; Llama 3.1 405B 1,667 of 4,500 against 737 of 1,979, x 0.99); BF16: FP8&apos;s value x H100&apos;s BF16/FP8 ratio 0.643/0.577 (no dense BF16 B200 recipe published; derived)</source>
        <translation>FP8：H100 的 0.577 x 0.96，即相同 FP8-CS 配方在 DGX-B200 与 DGX-H100 上模型 TFLOP/s 占 FP8 峰值之比的平均比值（Megatron-Bridge 25.11 性能汇总：Llama 3 8B 4,500 中 1,576 对比 1,979 中 744，x 0.93；Llama 3.1 405B 4,500 中 1,667 对比 1,979 中 737，x 0.99）；BF16：FP8 的值 x H100 的 BF16/FP8 比值 0.643/0.577（未公开 B200 稠密 BF16 配方；推算）</translation>
    </message>
    <message>
        <source>FP8: H100&apos;s 0.577 x 0.98, the mean ratio of model TFLOP/s per FP8 peak of the same FP8-CS recipes on DGX-GB200 and DGX-H100 (Megatron-Bridge 25.11 performance summary: Llama 3 8B 1,622 of 5,000 against 744 of 1,979, x 0.86; Llama 3.1 405B 2,053 of 5,000 against 737 of 1,979, x 1.10); BF16: FP8&apos;s value x 0.643/0.577 (derived)</source>
        <translation>FP8：H100 的 0.577 x 0.98，即相同 FP8-CS 配方在 DGX-GB200 与 DGX-H100 上模型 TFLOP/s 占 FP8 峰值之比的平均比值（Megatron-Bridge 25.11 性能汇总：Llama 3 8B 5,000 中 1,622 对比 1,979 中 744，x 0.86；Llama 3.1 405B 5,000 中 2,053 对比 1,979 中 737，x 1.10）；BF16：FP8 的值 x 0.643/0.577（推算）</translation>
    </message>
    <message>
        <source>NVIDIA GB200 NVL72 datasheet (72 Blackwell GPUs and 36 Grace CPUs in one NVLink domain: 360 PFLOP/s BF16 with sparsity -&gt; 2.5 PFLOP/s dense per GPU, 13.4 TB HBM3e -&gt; 186 GB per GPU, 576 TB/s -&gt; 8 TB/s per GPU, NVLink 5 1.8 TB/s bidirectional per GPU, 130 TB/s in the domain); compute trays of 2 GB200 superchips (4 GPUs) with one ConnectX-7 400 Gb/s NIC per GPU (NVIDIA GB200 NVL72 reference architecture); Grace: 72 Arm Neoverse V2 cores per CPU, 2,592 in the rack&apos;s 36; 1,200 W per GPU (GB200 superchip up to 2,700 W with Grace, derived); busbw fraction and NVLS as B200 (guess)</source>
        <translation>NVIDIA GB200 NVL72 数据手册（72 个 Blackwell GPU 与 36 个 Grace CPU 位于同一 NVLink 域：BF16 稀疏 360 PFLOP/s -&gt; 每 GPU 稠密 2.5 PFLOP/s，HBM3e 共 13.4 TB -&gt; 每 GPU 186 GB，576 TB/s -&gt; 每 GPU 8 TB/s，NVLink 5 每 GPU 双向 1.8 TB/s，域内 130 TB/s）；每个计算托盘含 2 个 GB200 超级芯片（4 个 GPU），每个 GPU 一块 ConnectX-7 400 Gb/s 网卡（NVIDIA GB200 NVL72 参考架构）；Grace：每 CPU 72 个 Arm Neoverse V2 核，整机柜 36 个 CPU 共 2,592 核；每 GPU 1,200 W（GB200 超级芯片连同 Grace 最高 2,700 W，推算）；busbw 比例与 NVLS 同 B200（估计值）</translation>
    </message>
    <message>
        <source>guesses: one NVL72 rack ~USD 3.4 M (reported USD 3.0-3.9 M); rack ~120 kW minus 72 x 1,200 W = ~34 kW for Grace, switches and fans (derived from the reported rack power); GPU-hour USD 6.00</source>
        <translation>估计值：一个 NVL72 机柜约 USD 3.4 M（据报道 USD 3.0-3.9 M）；机柜约 120 kW 减去 72 x 1,200 W = 约 34 kW 供 Grace、交换机与风扇（由报道的机柜功率推算）；每 GPU 小时 USD 6.00</translation>
    </message>
    <message>
        <source>perftest ib_send_lat results in a published thesis; NVIDIA/nccl and NVIDIA/nccl-tests GitHub issues (busbw measurements); Cai et al., SIGCOMM 2021 (kernel TCP at 100 Gb/s); IEEE 802.3bs/802.3df; IBTA InfiniBand specifications; NVIDIA ConnectX-7 documentation and DGX SuperPOD reference architecture</source>
        <translation>一篇已发表论文中的 perftest ib_send_lat 结果；NVIDIA/nccl 与 NVIDIA/nccl-tests 的 GitHub issue（busbw 实测）；Cai et al.，SIGCOMM 2021（100 Gb/s 下的内核 TCP）；IEEE 802.3bs/802.3df；IBTA InfiniBand 规范；NVIDIA ConnectX-7 文档与 DGX SuperPOD 参考架构</translation>
    </message>
    <message>
        <source>400GbE (IEEE 802.3bs); kernel-to-kernel TCP ~50 us (WWT), 110-220 us round trip on 1GbE (serverfault); ~42 Gb/s per core with TSO/GRO/jumbo frames, receiver copy bound (Cai et al., SIGCOMM 2021); one socket per connection, two connections (channels) per NIC = NCCL&apos;s defaults on a generic NIC (NVIDIA/nccl src/transport/net_socket.cc; 2 x 8 sockets only on AWS ENA, 4 x 1 on Google gVNIC); NCCL over TCP sockets reaches 4-6 GB/s busbw on 100 Gb/s, 32-48% of wire (NVIDIA/nccl issue 450) and &lt; 60% of wire on 32 Gb/s (NVIDIA/nccl issue 209): achievable 0.4, range 0.32-0.6</source>
        <translation>400GbE（IEEE 802.3bs）；内核到内核 TCP 约 50 us（WWT），1GbE 上往返 110-220 us（serverfault）；启用 TSO/GRO/巨型帧时每核约 42 Gb/s，受接收端拷贝限制（Cai et al.，SIGCOMM 2021）；每连接一个 socket，每块网卡两个连接（通道）= NCCL 在通用网卡上的默认值（NVIDIA/nccl src/transport/net_socket.cc；2 x 8 个 socket 仅用于 AWS ENA，4 x 1 用于 Google gVNIC）；NCCL 经 TCP socket 在 100 Gb/s 上达到 4-6 GB/s busbw，即线速的 32-48%（NVIDIA/nccl issue 450），在 32 Gb/s 上低于线速的 60%（NVIDIA/nccl issue 209）：可达比例 0.4，范围 0.32-0.6</translation>
    </message>
    <message>
        <source>loss_rate: a dedicated training fabric with ECN or delay-based congestion control, where congestion drops are near zero at full load (Swift, Kumar et al. SIGCOMM 2020; DCTCP, Alizadeh et al. SIGCOMM 2010) and corruption is confined to a few links that operators take out (Zhuo et al., SIGCOMM 2017): 1e-5 is a judgment between those and the 1e-5..1e-4 Pingmesh measured in general-purpose data centres under congestion (Guo et al., SIGCOMM 2015), the range&apos;s top; no single published figure for a TCP training fabric</source>
        <translation>loss_rate：采用 ECN 或基于时延的拥塞控制的专用训练网络，满载时拥塞丢包接近零（Swift，Kumar et al. SIGCOMM 2020；DCTCP，Alizadeh et al. SIGCOMM 2010），而报文损坏只出现在运维人员会下线的少数链路上（Zhuo et al.，SIGCOMM 2017）：1e-5 是在这些结果与 Pingmesh 在拥塞的通用数据中心测得的 1e-5..1e-4（Guo et al.，SIGCOMM 2015）之间的判断，取该范围的上端；TCP 训练网络没有单一的公开数值</translation>
    </message>
    <message>
        <source>ConnectX-7 400GbE (NVIDIA docs); RoCEv2 round trip &lt; 2 us on ConnectX-5 (NVIDIA developer forums); ~75 GB/s all-reduce on 8 x 100G RoCE (NVIDIA/nccl issue 495); untuned ~60% vs tuned ~98% (ClusterMAX 2.0 via a vendor blog); transport offloaded to the NIC</source>
        <translation>ConnectX-7 400GbE（NVIDIA 文档）；ConnectX-5 上 RoCEv2 往返 &lt; 2 us（NVIDIA 开发者论坛）；8 x 100G RoCE 上 all-reduce 约 75 GB/s（NVIDIA/nccl issue 495）；未调优约 60%，调优后约 98%（ClusterMAX 2.0，经由一篇厂商博客）；传输卸载到网卡</translation>
    </message>
    <message>
        <source>Meta trained Llama 3 on a RoCE and an InfiniBand 24K-H100 cluster tuned to equivalent performance (Dubey et al. 2024, section 3.3.1; Gangidi et al., &apos;RDMA over Ethernet for Distributed AI Training at Meta Scale&apos;, SIGCOMM 2024: enhanced ECMP with QP scaling, up to 40 % faster all-reduce); InfiniBand reaches 92-96 % of NDR (46-48 GB/s per NIC, nccl-tests issue 290), tuned RoCE ~98 % of theoretical against ~60 % untuned (ClusterMAX 2.0 via a vendor blog, secondary): achievable 0.9, the conservative end</source>
        <translation>Meta 在一个 RoCE 集群与一个 InfiniBand 集群（各 24K H100）上训练 Llama 3，两者调优到同等性能（Dubey et al. 2024，第 3.3.1 节；Gangidi et al.，&apos;RDMA over Ethernet for Distributed AI Training at Meta Scale&apos;，SIGCOMM 2024：增强型 ECMP 加 QP 扩展，all-reduce 最多快 40 %）；InfiniBand 达到 NDR 的 92-96 %（每块网卡 46-48 GB/s，nccl-tests issue 290），调优后的 RoCE 约为理论值的 98 %，未调优约 60 %（ClusterMAX 2.0，经由一篇厂商博客，二手来源）：可达比例 0.9，取保守端</translation>
    </message>
    <message>
        <source>Chelsio T6 iWARP: 100 Gb/s ports, ~1.5 us end-to-end RDMA (Chelsio iWARP product page); full TCP offload in the NIC, so no host CPU per byte; runs over ordinary lossy Ethernet (same loss as the TCP row)</source>
        <translation>Chelsio T6 iWARP：100 Gb/s 端口，端到端 RDMA 约 1.5 us（Chelsio iWARP 产品页）；TCP 完全卸载到网卡，因此每字节不占主机 CPU；运行在普通有损以太网上（丢包率同 TCP 一行）</translation>
    </message>
    <message>
        <source>NDR 400 Gb/s per 4x port (IBTA); ib_send_lat 0.81-0.83 us (perftest, published thesis); nccl-tests busbw 92-96% of NDR (46-48 GB/s per NIC, nccl-tests issue 290); BER 1e-12 (IBTA)</source>
        <translation>每个 4x 端口 NDR 400 Gb/s（IBTA）；ib_send_lat 0.81-0.83 us（perftest，已发表论文）；nccl-tests busbw 为 NDR 的 92-96%（每块网卡 46-48 GB/s，nccl-tests issue 290）；误码率 1e-12（IBTA）</translation>
    </message>
    <message>
        <source>Llama 3 405B (Dubey et al. 2024, 370 non-network unexpected interruptions / 21.2 M GPU-hours); restart: MegaScale detection + diagnosis &lt; 10 min (Jiang et al., NSDI 2024)</source>
        <translation>Llama 3 405B（Dubey et al. 2024，370 次非网络意外中断 / 21.2 M GPU 小时）；重启：MegaScale 检测 + 诊断 &lt; 10 min（Jiang et al.，NSDI 2024）</translation>
    </message>
    <message>
        <source>US industrial average 8.06 cents/kWh (EIA, 2023); PUE 1.55-1.59 industry average (Uptime Institute)</source>
        <translation>美国工业平均电价 8.06 美分/kWh（EIA，2023）；PUE 1.55-1.59 行业平均（Uptime Institute）</translation>
    </message>
    <message>
        <source>2026 vendor blog post &apos;The network is the key: the importance of RDMA and InfiniBand in distributed training&apos;, §2.1-§2.3</source>
        <translation>2026 年厂商博客文章 &apos;The network is the key: the importance of RDMA and InfiniBand in distributed training&apos;，§2.1-§2.3</translation>
    </message>
    <message>
        <source>article §2.3 table: latency 50-150 us, ceiling 100 Gb/s, CPU 30-40%, loss 0.5-1%, CNY 800-1,200 per node</source>
        <translation>原文 §2.3 表格：时延 50-150 us，上限 100 Gb/s，CPU 30-40%，丢包 0.5-1%，每节点 CNY 800-1,200</translation>
    </message>
    <message>
        <source>article §2.3 table: latency 20-30 us, ceiling 200 Gb/s, CPU 15-20%, loss 0.1-0.3%, CNY 3,000-5,000 per node</source>
        <translation>原文 §2.3 表格：时延 20-30 us，上限 200 Gb/s，CPU 15-20%，丢包 0.1-0.3%，每节点 CNY 3,000-5,000</translation>
    </message>
    <message>
        <source>article §2.3 table: latency 30-40 us, ceiling 100 Gb/s, CPU 20-25%, loss 0.2-0.4%, CNY 2,500-4,000 per node</source>
        <translation>原文 §2.3 表格：时延 30-40 us，上限 100 Gb/s，CPU 20-25%，丢包 0.2-0.4%，每节点 CNY 2,500-4,000</translation>
    </message>
    <message>
        <source>article §2.3 table: latency 8-15 us, 400-800 Gb/s, CPU &lt;= 5%, loss &lt; 0.01%, CNY 6,000-10,000 per node; achievable fraction from nccl-tests issue 290 (NDR 46-48 GB/s per NIC)</source>
        <translation>原文 §2.3 表格：时延 8-15 us，400-800 Gb/s，CPU &lt;= 5%，丢包 &lt; 0.01%，每节点 CNY 6,000-10,000；可达比例取自 nccl-tests issue 290（NDR 每块网卡 46-48 GB/s）</translation>
    </message>
    <message>
        <source>article: interruptions are network-caused only (see header); restart 10 min = MegaScale detection + diagnosis (NSDI 2024), the article gives none</source>
        <translation>原文：中断仅由网络引起（见配置文件开头的说明）；重启 10 min = MegaScale 检测 + 诊断（NSDI 2024），原文未给出</translation>
    </message>
    <message>
        <source>the article&apos;s money is in CNY and its network cost per node (§2.3); electricity CNY 0.65/kWh (guess: Chinese large-industry tariff order of magnitude, not in the article); PUE 1.5 (guess: the article gives 1.25 and 1.15 only for its cases)</source>
        <translation>原文的金额以 CNY 计，并给出每节点网络成本（§2.3）；电价 CNY 0.65/kWh（估计值：中国大工业电价的量级，原文未给出）；PUE 1.5（估计值：原文仅为其案例给出 1.25 和 1.15）</translation>
    </message>
</context>
<context>
    <name>Stage</name>
    <message>
        <source>Training days</source>
        <translation>训练天数</translation>
    </message>
    <message>
        <source>GPU utilisation</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>Total cost of ownership</source>
        <translation>总拥有成本</translation>
    </message>
    <message>
        <source>Cost per run</source>
        <translation>单次训练成本</translation>
    </message>
    <message>
        <source>The chart the room sees</source>
        <translation>投影给观众的图表</translation>
    </message>
    <message>
        <source>Esc: back to the full window</source>
        <translation>Esc：返回完整窗口</translation>
    </message>
    <message>
        <source>Engine&apos;s pick</source>
        <translation>引擎推荐</translation>
    </message>
    <message>
        <source>none fits</source>
        <translation>无可行方案</translation>
    </message>
    <message>
        <source>a tie: {fabrics}</source>
        <translation>不分高下：{fabrics}</translation>
    </message>
    <message>
        <source>{pick}, {margin} ahead of {other}</source>
        <translation>{pick}，领先 {other} {margin}</translation>
    </message>
    <message>
        <source>Engine&apos;s pick and margin</source>
        <translation>引擎推荐及领先幅度</translation>
    </message>
    <message>
        <source>Saved per year vs {fabric}, same runs</source>
        <translation>相对 {fabric} 每年节省（同等训练次数）</translation>
    </message>
</context>
<context>
    <name>Tornado</name>
    <message>
        <source>Latency</source>
        <translation>时延</translation>
    </message>
    <message>
        <source>Packet loss</source>
        <translation>丢包率</translation>
    </message>
    <message>
        <source>Bandwidth per NIC</source>
        <translation>每网卡带宽</translation>
    </message>
    <message>
        <source>Achievable bandwidth</source>
        <translation>可达带宽</translation>
    </message>
    <message>
        <source>CPU use at line rate</source>
        <translation>线速时的 CPU 占用</translation>
    </message>
    <message>
        <source>Network cost per node</source>
        <translation>每节点网络成本</translation>
    </message>
    <message>
        <source>Electricity price</source>
        <translation>电价</translation>
    </message>
    <message>
        <source>PUE</source>
        <translation>PUE</translation>
    </message>
    <message>
        <source> · scenario value ± profile spread</source>
        <translation> · 场景取值 ± 参数集相对范围</translation>
    </message>
    <message>
        <source> · top {shown} of {total}</source>
        <translation> · 前 {shown} 项（共 {total} 项）</translation>
    </message>
    <message>
        <source>No input with a range moves this</source>
        <translation>没有带区间的输入会影响此项</translation>
    </message>
    <message>
        <source> · negligible: no input&apos;s range moves it more than ±{pct} %</source>
        <translation> · 可忽略：任何输入在其范围内的变动都不超过 ±{pct} %</translation>
    </message>
    <message>
        <source> · largest swing ±{pct} %</source>
        <translation> · 最大变动 ±{pct} %</translation>
    </message>
    <message>
        <source>No single pick to defend here (a tie, or one fabric only).</source>
        <translation>此处没有唯一的推荐（不分高下，或只有一种网络）。</translation>
    </message>
    <message>
        <source>training days</source>
        <translation>训练天数</translation>
    </message>
    <message>
        <source>cost per run</source>
        <translation>单次训练成本</translation>
    </message>
    <message>
        <source>&lt;b&gt;What would change the pick:&lt;/b&gt; {pick} leads {other} by {gap} on {metric}.</source>
        <translation>&lt;b&gt;什么会改变推荐：&lt;/b&gt;{pick} 的{metric}领先 {other} {gap}。</translation>
    </message>
    <message>
        <source>at its low end</source>
        <translation>取下限</translation>
    </message>
    <message>
        <source>at its high end</source>
        <translation>取上限</translation>
    </message>
    <message>
        <source>Reversed by: {inputs}.</source>
        <translation>会被以下单项逆转：{inputs}。</translation>
    </message>
    <message>
        <source>No single input within its range reverses it; the closest, {input} {end}, leaves {gap}.</source>
        <translation>没有单项输入在其范围内能逆转它；最接近的是 {input}{end}，仍领先 {gap}。</translation>
    </message>
    <message>
        <source>No input with a range moves either fabric.</source>
        <translation>没有带区间的输入会影响这两种网络。</translation>
    </message>
    <message>
        <source>input at the low end of its range</source>
        <translation>输入取区间下限</translation>
    </message>
    <message>
        <source>at the high end</source>
        <translation>取区间上限</translation>
    </message>
    <message>
        <source>nominal</source>
        <translation>标称值</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sensitivity of {fabric}&lt;/b&gt; at this point: each input swung across its range, one at a time (nominal {days} days, TCO {tco})</source>
        <translation>&lt;b&gt;{fabric} 的敏感性&lt;/b&gt;（当前点）：每次只让一个输入在其区间内变化（标称 {days} 天，TCO {tco}）</translation>
    </message>
    <message>
        <source>Training days</source>
        <translation>训练天数</translation>
    </message>
    <message>
        <source>TCO ({code})</source>
        <translation>TCO（{code}）</translation>
    </message>
    <message>
        <source>{profile} profile: {source}</source>
        <translation>{profile} 配置集：{source}</translation>
    </message>
    <message>
        <source>this scenario&apos;s value {value}, with the {profile} profile&apos;s relative spread ({lo}–{hi} around {nominal})</source>
        <translation>本场景的值 {value}，按 {profile} 配置集的相对范围（{lo}–{hi}，标称值 {nominal}）</translation>
    </message>
    <message>
        <source>TCO</source>
        <translation>TCO</translation>
    </message>
</context>
<context>
    <name>Unit</name>
    <message>
        <source>B tokens</source>
        <translation>B 个 token</translation>
    </message>
    <message>
        <source>years</source>
        <translation>年</translation>
    </message>
    <message>
        <source>days</source>
        <translation>天</translation>
    </message>
    <message>
        <source>min</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>per 10⁶ node·h</source>
        <translation>次/百万节点·小时</translation>
    </message>
</context>
</TS>
