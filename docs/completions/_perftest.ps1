
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
            [CompletionResult]::new('--device', '--device', [CompletionResultType]::ParameterName, 'Pick device N of --list (1-based), also written -N: `perftest -2`')
            [CompletionResult]::new('--suite', '--suite', [CompletionResultType]::ParameterName, 'Run the cases of SUITE (default: original), e.g. memory,graphics')
            [CompletionResult]::new('--filter', '--filter', [CompletionResultType]::ParameterName, 'Run only cases whose id or name contains TEXT; repeat for a union')
            [CompletionResult]::new('--max-working-set', '--max-working-set', [CompletionResultType]::ParameterName, 'Leave out cases whose working set is larger than SIZE (e.g. 64MB)')
            [CompletionResult]::new('--target-ms', '--target-ms', [CompletionResultType]::ParameterName, 'GPU time of one measurement in ms (0.5 to 1000)')
            [CompletionResult]::new('--samples', '--samples', [CompletionResultType]::ParameterName, 'Dispatches timed per measurement, at least (1 to 256)')
            [CompletionResult]::new('--dispatch-ms', '--dispatch-ms', [CompletionResultType]::ParameterName, 'GPU time one dispatch is sized for, in ms (0.05 to 100)')
            [CompletionResult]::new('--warmup-max', '--warmup-max', [CompletionResultType]::ParameterName, 'Re-sizes of a case at most (0 to 100)')
            [CompletionResult]::new('--placements', '--placements', [CompletionResultType]::ParameterName, 'Places in memory the cases'' resources take turns at, one per round (1 to 16)')
            [CompletionResult]::new('--pipeline-cache', '--pipeline-cache', [CompletionResultType]::ParameterName, 'Build pipelines through a Vulkan pipeline cache kept in FILE')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the report')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the report in --format to FILE (atomically) instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the report in --format to FILE (atomically) instead of stdout')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'Case id the `x` column is relative to')
            [CompletionResult]::new('--clock-mhz', '--clock-mhz', [CompletionResultType]::ParameterName, 'Shader clock in MHz for latencies in cycles, not the measured one')
            [CompletionResult]::new('--shader-units', '--shader-units', [CompletionResultType]::ParameterName, 'Shader units (SMs, CUs, cores) for rates per clock and unit, where the driver tells none')
            [CompletionResult]::new('--dump-shaders', '--dump-shaders', [CompletionResultType]::ParameterName, 'Write each case''s compiled shader to `DIR/<case id>.txt`')
            [CompletionResult]::new('--fence-timeout-ms', '--fence-timeout-ms', [CompletionResultType]::ParameterName, 'When a GPU submission counts as hung, in ms')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List the devices, one line per device and compute queue family, and exit')
            [CompletionResult]::new('--all-devices', '--all-devices', [CompletionResultType]::ParameterName, 'Time every device at once, then a node summary flagging outliers (exit 6)')
            [CompletionResult]::new('--list-cases', '--list-cases', [CompletionResultType]::ParameterName, 'List the chosen suites'' cases (id and name, in run order) and exit')
            [CompletionResult]::new('--verify', '--verify', [CompletionResultType]::ParameterName, 'Check every case against its CPU model instead of timing it')
            [CompletionResult]::new('--no-verify', '--no-verify', [CompletionResultType]::ParameterName, 'Time cases without checking their results first')
            [CompletionResult]::new('--no-refine', '--no-refine', [CompletionResultType]::ParameterName, 'Measure the latency sweep on its doubling grid only')
            [CompletionResult]::new('--shader-stats', '--shader-stats', [CompletionResultType]::ParameterName, 'Print the driver''s statistics of each case''s compiled shader')
            [CompletionResult]::new('--validation', '--validation', [CompletionResultType]::ParameterName, 'Enable the Khronos validation layer; exit 3 if it reports anything')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print the wall time of each phase on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print the wall time of each phase on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (`--help`: the details)')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (`--help`: the details)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print the version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print the version')
            [CompletionResult]::new('compare', 'compare', [CompletionResultType]::ParameterValue, 'Compare JSON reports: two side by side, or many with outliers flagged')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Print a saved JSON report again in another format (e.g. a Markdown table)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'perftest;compare' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: an aligned table, or a self-contained HTML page')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the comparison to FILE (atomically) instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the comparison to FILE (atomically) instead of stdout')
            [CompletionResult]::new('--fail-above', '--fail-above', [CompletionResultType]::ParameterName, 'Exit 5 when any case got slower by more than PCT percent (two reports)')
            [CompletionResult]::new('--fail-median', '--fail-median', [CompletionResultType]::ParameterName, 'Exit 5 when the median change is a slowdown of more than PCT percent (two reports)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (`--help`: the details)')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (`--help`: the details)')
            break
        }
        'perftest;render' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the report to FILE (atomically) instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the report to FILE (atomically) instead of stdout')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (`--help`: the details)')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (`--help`: the details)')
            break
        }
        'perftest;help' {
            [CompletionResult]::new('compare', 'compare', [CompletionResultType]::ParameterValue, 'Compare JSON reports: two side by side, or many with outliers flagged')
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
