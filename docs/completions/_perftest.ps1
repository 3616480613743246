
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'perftest' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'perftest'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'perftest' {
            [CompletionResult]::new('--device', '--device', [CompletionResultType]::ParameterName, 'Pick device N of `--list` (1-based); written `-N` as in the original, e.g. `perftest -2`')
            [CompletionResult]::new('--suite', '--suite', [CompletionResultType]::ParameterName, 'Run the cases of SUITE: original (the default: the original''s 138 cases), modern, texture, memory, graphics (fragment and vertex shaders, vertex fetch), or all. Repeat or separate with commas for several; --filter then selects within them')
            [CompletionResult]::new('--filter', '--filter', [CompletionResultType]::ParameterName, 'Run only cases whose id or name contains TEXT (case-insensitive substring, no wildcards). Repeat to select the union')
            [CompletionResult]::new('--max-working-set', '--max-working-set', [CompletionResultType]::ParameterName, 'Leave out cases whose working set is larger than SIZE (bytes, or with KB, MB or GB: `64MB`), e.g. to run the memory suite''s sweep within a small device''s memory; a case that does not vary its working set counts as the original''s 16 KB')
            [CompletionResult]::new('--clock-mhz', '--clock-mhz', [CompletionResultType]::ParameterName, 'The SM clock the device runs at while measuring, in MHz (from the vendor''s tools, e.g. `nvidia-smi --query-gpu=clocks.sm`): the cache-hierarchy section then gives latencies in cycles too')
            [CompletionResult]::new('--target-ms', '--target-ms', [CompletionResultType]::ParameterName, 'GPU time of one measurement, in milliseconds (0.5 to 1000): that many --dispatch-ms dispatches, at least --samples and at most 256 of them')
            [CompletionResult]::new('--samples', '--samples', [CompletionResultType]::ParameterName, 'Timestamped dispatches per measurement, at least; their times are the samples (1 to 256)')
            [CompletionResult]::new('--dispatch-ms', '--dispatch-ms', [CompletionResultType]::ParameterName, 'GPU time one dispatch is sized for, in milliseconds (0.05 to 100). The time per workgroup depends on it (what a dispatch pays once, its partly idle last wave), so compare runs made with the same value; --samples and --target-ms leave it alone')
            [CompletionResult]::new('--warmup-max', '--warmup-max', [CompletionResultType]::ParameterName, 'Measurements a case may discard while waiting for steady clocks (0 to 100)')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'Case id the `x` column is relative to')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the report in --format to FILE (atomically) and print the text table')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the report in --format to FILE (atomically) and print the text table')
            [CompletionResult]::new('--dump-shaders', '--dump-shaders', [CompletionResultType]::ParameterName, 'Write each case''s compiled shader as the driver shows it (e.g. RADV''s assembly) to `DIR/<case id>.txt`, where the driver offers it. DIR is created if missing')
            [CompletionResult]::new('--pipeline-cache', '--pipeline-cache', [CompletionResultType]::ParameterName, 'Build pipelines through a Vulkan pipeline cache kept in FILE: loaded when it exists and belongs to this device and driver (otherwise ignored with a warning), saved after the pipelines are built. Speeds up start-up where the driver keeps no cache of its own')
            [CompletionResult]::new('--fence-timeout-ms', '--fence-timeout-ms', [CompletionResultType]::ParameterName, 'Longest time one GPU submission may take before it is reported as hung, in ms')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List the devices (one line per device and compute queue family) and exit')
            [CompletionResult]::new('--all-devices', '--all-devices', [CompletionResultType]::ParameterName, 'Run on every physical device at once (its first compute queue family), one thread and one report each, then print a node summary flagging outlier devices (exit 6). With --output, the path must contain {device} (replaced by the device''s --list number) or {pci} (its PCI address, 00000000-18-00.0), or name a directory')
            [CompletionResult]::new('--list-cases', '--list-cases', [CompletionResultType]::ParameterName, 'List the cases of the chosen suites (id and name, in run order) and exit; with more than one suite each line starts with the case''s suite')
            [CompletionResult]::new('--verify', '--verify', [CompletionResultType]::ParameterName, 'Check every selected case against its CPU model instead of timing it; prints pass/FAIL per case, exits 4 on any failure')
            [CompletionResult]::new('--no-verify', '--no-verify', [CompletionResultType]::ParameterName, 'Time cases without first checking their results against the CPU model')
            [CompletionResult]::new('--no-refine', '--no-refine', [CompletionResultType]::ParameterName, 'Measure the latency sweep on its doubling grid only. By default the sweep then measures the working sets between its levels too (at most 4 rounds), until every transition is known to 1/16 of an octave')
            [CompletionResult]::new('--validation', '--validation', [CompletionResultType]::ParameterName, 'Enable the Khronos validation layer; exit 3 if it reports anything')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print the wall time of each phase (pipelines, verification, warm-up, measurements) on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print the wall time of each phase (pipelines, verification, warm-up, measurements) on stderr')
            [CompletionResult]::new('--shader-stats', '--shader-stats', [CompletionResultType]::ParameterName, 'Print the driver''s statistics of each case''s compiled shader (registers, binary size, ...) below the table, where the driver offers them (VK_KHR_pipeline_executable_properties)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('compare', 'compare', [CompletionResultType]::ParameterValue, 'Compare JSON reports. Two: per-case throughput ratio B/A, median and max change. Three or more (one per GPU or node): per case the median over them, each one''s deviation, and outliers flagged (exit 6)')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Print a saved JSON report again in another format (e.g. a Markdown table)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'perftest;compare' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: an aligned table, or a self-contained HTML page (two reports: change bars; three or more: the node table with outliers marked)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write to FILE instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write to FILE instead of stdout')
            [CompletionResult]::new('--fail-above', '--fail-above', [CompletionResultType]::ParameterName, 'Exit 5 when any case got slower by more than PCT percent (throughput B vs A; two reports)')
            [CompletionResult]::new('--fail-median', '--fail-median', [CompletionResultType]::ParameterName, 'Exit 5 when the median change over all cases is a slowdown of more than PCT percent (two reports)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'perftest;render' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write to FILE (atomically) instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write to FILE (atomically) instead of stdout')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'perftest;help' {
            [CompletionResult]::new('compare', 'compare', [CompletionResultType]::ParameterValue, 'Compare JSON reports. Two: per-case throughput ratio B/A, median and max change. Three or more (one per GPU or node): per case the median over them, each one''s deviation, and outliers flagged (exit 6)')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Print a saved JSON report again in another format (e.g. a Markdown table)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'perftest;help;compare' {
            break
        }
        'perftest;help;render' {
            break
        }
        'perftest;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
