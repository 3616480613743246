# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_perftest_global_optspecs
    string join \n device= list all-devices list-cases suite= filter= max-working-set= verify no-verify target-ms= samples= dispatch-ms= warmup-max= placements= no-refine pipeline-cache= format= o/output= baseline= clock-mhz= shader-units= shader-stats dump-shaders= validation v/verbose fence-timeout-ms= h/help V/version
end

function __fish_perftest_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_perftest_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_perftest_using_subcommand
    set -l cmd (__fish_perftest_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c perftest -n "__fish_perftest_needs_command" -l device -d 'Pick device N of --list (1-based), also written -N: `perftest -2`' -r
complete -c perftest -n "__fish_perftest_needs_command" -l suite -d 'Run the cases of SUITE (default: original), e.g. memory,graphics' -r -f -a "original\t''
modern\t''
texture\t''
memory\t''
graphics\t''
transfer\t''
answers\t''
all\t''"
complete -c perftest -n "__fish_perftest_needs_command" -l filter -d 'Run only cases whose id or name contains TEXT; repeat for a union' -r
complete -c perftest -n "__fish_perftest_needs_command" -l max-working-set -d 'Leave out cases whose working set is larger than SIZE (e.g. 64MB)' -r
complete -c perftest -n "__fish_perftest_needs_command" -l target-ms -d 'GPU time of one measurement in ms (0.5 to 1000)' -r
complete -c perftest -n "__fish_perftest_needs_command" -l samples -d 'Dispatches timed per measurement, at least (1 to 256)' -r
complete -c perftest -n "__fish_perftest_needs_command" -l dispatch-ms -d 'GPU time one dispatch is sized for, in ms (0.05 to 100)' -r
complete -c perftest -n "__fish_perftest_needs_command" -l warmup-max -d 'Re-sizes of a case at most (0 to 100)' -r
complete -c perftest -n "__fish_perftest_needs_command" -l placements -d 'Places in memory the cases\' resources take turns at, one per round (1 to 16)' -r
complete -c perftest -n "__fish_perftest_needs_command" -l pipeline-cache -d 'Build pipelines through a Vulkan pipeline cache kept in FILE' -r -F
complete -c perftest -n "__fish_perftest_needs_command" -l format -d 'Output format of the report' -r -f -a "text\t'Aligned table with time, relative speed, throughput and spread per case'
original\t'The original perftest\'s lines: `NAME: X.XXXms Y.YYYx`'
json\t'The full report with derived figures, as pretty-printed JSON (`perftest compare` reads it back)'
csv\t'One row per case, for spreadsheets'
markdown\t'A GitHub Markdown table'
html\t'A self-contained HTML page: per family a heatmap, a bar chart and the table; with sweep cases, the cache hierarchy\'s latency and bandwidth curves and levels'
svg\t'One SVG chart: the sweep\'s curves (when the report has sweep cases) and the families\' heatmaps, stacked'
bmf\t'Bencher Metric Format (JSON), for the Bencher dashboard'
benchmark-action\t'github-action-benchmark\'s `customBiggerIsBetter` JSON'"
complete -c perftest -n "__fish_perftest_needs_command" -s o -l output -d 'Write the report in --format to FILE (atomically) instead of stdout' -r -F
complete -c perftest -n "__fish_perftest_needs_command" -l baseline -d 'Case id the `x` column is relative to' -r
complete -c perftest -n "__fish_perftest_needs_command" -l clock-mhz -d 'Shader clock in MHz for latencies in cycles, not the measured one' -r
complete -c perftest -n "__fish_perftest_needs_command" -l shader-units -d 'Shader units (SMs, CUs, cores) for rates per clock and unit, where the driver tells none' -r
complete -c perftest -n "__fish_perftest_needs_command" -l dump-shaders -d 'Write each case\'s compiled shader to `DIR/<case id>.txt`' -r -F
complete -c perftest -n "__fish_perftest_needs_command" -l fence-timeout-ms -d 'When a GPU submission counts as hung, in ms' -r
complete -c perftest -n "__fish_perftest_needs_command" -l list -d 'List the devices, one line per device and compute queue family, and exit'
complete -c perftest -n "__fish_perftest_needs_command" -l all-devices -d 'Time every device at once, then a node summary flagging outliers (exit 6)'
complete -c perftest -n "__fish_perftest_needs_command" -l list-cases -d 'List the chosen suites\' cases (id and name, in run order) and exit'
complete -c perftest -n "__fish_perftest_needs_command" -l verify -d 'Check every case against its CPU model instead of timing it'
complete -c perftest -n "__fish_perftest_needs_command" -l no-verify -d 'Time cases without checking their results first'
complete -c perftest -n "__fish_perftest_needs_command" -l no-refine -d 'Measure the latency sweep on its doubling grid only'
complete -c perftest -n "__fish_perftest_needs_command" -l shader-stats -d 'Print the driver\'s statistics of each case\'s compiled shader'
complete -c perftest -n "__fish_perftest_needs_command" -l validation -d 'Enable the Khronos validation layer; exit 3 if it reports anything'
complete -c perftest -n "__fish_perftest_needs_command" -s v -l verbose -d 'Print the wall time of each phase on stderr'
complete -c perftest -n "__fish_perftest_needs_command" -s h -l help -d 'Print help (`--help`: the details)'
complete -c perftest -n "__fish_perftest_needs_command" -s V -l version -d 'Print the version'
complete -c perftest -n "__fish_perftest_needs_command" -a "compare" -d 'Compare JSON reports: two side by side, or many with outliers flagged'
complete -c perftest -n "__fish_perftest_needs_command" -a "render" -d 'Print a saved JSON report again in another format (e.g. a Markdown table)'
complete -c perftest -n "__fish_perftest_needs_command" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c perftest -n "__fish_perftest_using_subcommand compare" -l format -d 'Output format: an aligned table, or a self-contained HTML page' -r -f -a "text\t'Aligned table: the changes with their median and largest (two reports), or the node table with outliers flagged (three or more)'
html\t'A self-contained HTML page: per-case change bars (green faster, red slower) and the table (two reports), or the node table with flagged cells marked (three or more)'
markdown\t'Three or more reports of different GPUs only: the matrix, its legend and the advice across GPUs as Markdown'
json\t'Three or more reports of different GPUs only: the matrix, its legend and the advice across GPUs as JSON'"
complete -c perftest -n "__fish_perftest_using_subcommand compare" -s o -l output -d 'Write the comparison to FILE (atomically) instead of stdout' -r -F
complete -c perftest -n "__fish_perftest_using_subcommand compare" -l fail-above -d 'Exit 5 when any case got slower by more than PCT percent (two reports)' -r
complete -c perftest -n "__fish_perftest_using_subcommand compare" -l fail-median -d 'Exit 5 when the median change is a slowdown of more than PCT percent (two reports)' -r
complete -c perftest -n "__fish_perftest_using_subcommand compare" -s h -l help -d 'Print help (`--help`: the details)'
complete -c perftest -n "__fish_perftest_using_subcommand render" -l format -d 'Output format' -r -f -a "text\t'Aligned table with time, relative speed, throughput and spread per case'
original\t'The original perftest\'s lines: `NAME: X.XXXms Y.YYYx`'
json\t'The full report with derived figures, as pretty-printed JSON (`perftest compare` reads it back)'
csv\t'One row per case, for spreadsheets'
markdown\t'A GitHub Markdown table'
html\t'A self-contained HTML page: per family a heatmap, a bar chart and the table; with sweep cases, the cache hierarchy\'s latency and bandwidth curves and levels'
svg\t'One SVG chart: the sweep\'s curves (when the report has sweep cases) and the families\' heatmaps, stacked'
bmf\t'Bencher Metric Format (JSON), for the Bencher dashboard'
benchmark-action\t'github-action-benchmark\'s `customBiggerIsBetter` JSON'"
complete -c perftest -n "__fish_perftest_using_subcommand render" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c perftest -n "__fish_perftest_using_subcommand render" -s h -l help -d 'Print help (`--help`: the details)'
complete -c perftest -n "__fish_perftest_using_subcommand help; and not __fish_seen_subcommand_from compare render help" -f -a "compare" -d 'Compare JSON reports: two side by side, or many with outliers flagged'
complete -c perftest -n "__fish_perftest_using_subcommand help; and not __fish_seen_subcommand_from compare render help" -f -a "render" -d 'Print a saved JSON report again in another format (e.g. a Markdown table)'
complete -c perftest -n "__fish_perftest_using_subcommand help; and not __fish_seen_subcommand_from compare render help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
