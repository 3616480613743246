# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_perftest_global_optspecs
    string join \n device= list all-devices list-cases suite= filter= max-working-set= clock-mhz= verify no-verify no-refine target-ms= samples= dispatch-ms= warmup-max= baseline= format= o/output= validation v/verbose shader-stats dump-shaders= pipeline-cache= fence-timeout-ms= h/help V/version
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

complete -c perftest -n "__fish_perftest_needs_command" -l device -d 'Pick device N of `--list` (1-based); written `-N` as in the original, e.g. `perftest -2`' -r
complete -c perftest -n "__fish_perftest_needs_command" -l suite -d 'Run the cases of SUITE: original (the default: the original\'s 138 cases), modern, texture, memory, graphics (fragment and vertex shaders, vertex fetch), or all. Repeat or separate with commas for several; --filter then selects within them' -r
complete -c perftest -n "__fish_perftest_needs_command" -l filter -d 'Run only cases whose id or name contains TEXT (case-insensitive substring, no wildcards). Repeat to select the union' -r
complete -c perftest -n "__fish_perftest_needs_command" -l max-working-set -d 'Leave out cases whose working set is larger than SIZE (bytes, or with KB, MB or GB: `64MB`), e.g. to run the memory suite\'s sweep within a small device\'s memory; a case that does not vary its working set counts as the original\'s 16 KB' -r
complete -c perftest -n "__fish_perftest_needs_command" -l clock-mhz -d 'The SM clock the device runs at while measuring, in MHz (from the vendor\'s tools, e.g. `nvidia-smi --query-gpu=clocks.sm`): the cache-hierarchy section then gives latencies in cycles too' -r
complete -c perftest -n "__fish_perftest_needs_command" -l target-ms -d 'GPU time of one measurement, in milliseconds (0.5 to 1000): that many --dispatch-ms dispatches, at least --samples and at most 256 of them' -r
complete -c perftest -n "__fish_perftest_needs_command" -l samples -d 'Timestamped dispatches per measurement, at least; their times are the samples (1 to 256)' -r
complete -c perftest -n "__fish_perftest_needs_command" -l dispatch-ms -d 'GPU time one dispatch is sized for, in milliseconds (0.05 to 100). The time per workgroup depends on it (what a dispatch pays once, its partly idle last wave), so compare runs made with the same value; --samples and --target-ms leave it alone' -r
complete -c perftest -n "__fish_perftest_needs_command" -l warmup-max -d 'Measurements a case may discard while waiting for steady clocks (0 to 100)' -r
complete -c perftest -n "__fish_perftest_needs_command" -l baseline -d 'Case id the `x` column is relative to' -r
complete -c perftest -n "__fish_perftest_needs_command" -l format -d 'Output format' -r -f -a "text\t'Aligned table with time, relative speed, throughput and spread per case'
original\t'The original perftest\'s lines: `NAME: X.XXXms Y.YYYx`'
json\t'The full report with derived figures, as pretty-printed JSON (`perftest compare` reads it back)'
csv\t'One row per case, for spreadsheets'
markdown\t'A GitHub Markdown table'
html\t'A self-contained HTML page: per family a heatmap, a bar chart and the table; with sweep cases, the cache hierarchy\'s latency and bandwidth curves and levels'
svg\t'One SVG chart: the sweep\'s curves (when the report has sweep cases) and the families\' heatmaps, stacked'
bmf\t'Bencher Metric Format (JSON), for the Bencher dashboard'
benchmark-action\t'github-action-benchmark\'s `customBiggerIsBetter` JSON'"
complete -c perftest -n "__fish_perftest_needs_command" -s o -l output -d 'Write the report in --format to FILE (atomically) and print the text table' -r -F
complete -c perftest -n "__fish_perftest_needs_command" -l dump-shaders -d 'Write each case\'s compiled shader as the driver shows it (e.g. RADV\'s assembly) to `DIR/<case id>.txt`, where the driver offers it. DIR is created if missing' -r -F
complete -c perftest -n "__fish_perftest_needs_command" -l pipeline-cache -d 'Build pipelines through a Vulkan pipeline cache kept in FILE: loaded when it exists and belongs to this device and driver (otherwise ignored with a warning), saved after the pipelines are built. Speeds up start-up where the driver keeps no cache of its own' -r -F
complete -c perftest -n "__fish_perftest_needs_command" -l fence-timeout-ms -d 'Longest time one GPU submission may take before it is reported as hung, in ms' -r
complete -c perftest -n "__fish_perftest_needs_command" -l list -d 'List the devices (one line per device and compute queue family) and exit'
complete -c perftest -n "__fish_perftest_needs_command" -l all-devices -d 'Run on every physical device at once (its first compute queue family), one thread and one report each, then print a node summary flagging outlier devices (exit 6). With --output, the path must contain {device} (replaced by the device\'s --list number) or {pci} (its PCI address, 00000000-18-00.0), or name a directory'
complete -c perftest -n "__fish_perftest_needs_command" -l list-cases -d 'List the cases of the chosen suites (id and name, in run order) and exit; with more than one suite each line starts with the case\'s suite'
complete -c perftest -n "__fish_perftest_needs_command" -l verify -d 'Check every selected case against its CPU model instead of timing it; prints pass/FAIL per case, exits 4 on any failure'
complete -c perftest -n "__fish_perftest_needs_command" -l no-verify -d 'Time cases without first checking their results against the CPU model'
complete -c perftest -n "__fish_perftest_needs_command" -l no-refine -d 'Measure the latency sweep on its doubling grid only. By default the sweep then measures the working sets between its levels too (at most 4 rounds), until every transition is known to 1/16 of an octave'
complete -c perftest -n "__fish_perftest_needs_command" -l validation -d 'Enable the Khronos validation layer; exit 3 if it reports anything'
complete -c perftest -n "__fish_perftest_needs_command" -s v -l verbose -d 'Print the wall time of each phase (pipelines, verification, warm-up, measurements) on stderr'
complete -c perftest -n "__fish_perftest_needs_command" -l shader-stats -d 'Print the driver\'s statistics of each case\'s compiled shader (registers, binary size, ...) below the table, where the driver offers them (VK_KHR_pipeline_executable_properties)'
complete -c perftest -n "__fish_perftest_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c perftest -n "__fish_perftest_needs_command" -s V -l version -d 'Print version'
complete -c perftest -n "__fish_perftest_needs_command" -a "compare" -d 'Compare JSON reports. Two: per-case throughput ratio B/A, median and max change. Three or more (one per GPU or node): per case the median over them, each one\'s deviation, and outliers flagged (exit 6)'
complete -c perftest -n "__fish_perftest_needs_command" -a "render" -d 'Print a saved JSON report again in another format (e.g. a Markdown table)'
complete -c perftest -n "__fish_perftest_needs_command" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c perftest -n "__fish_perftest_using_subcommand compare" -l format -d 'Output format: an aligned table, or a self-contained HTML page (two reports: change bars; three or more: the node table with outliers marked)' -r -f -a "text\t'Aligned table: the changes with their median and largest (two reports), or the node table with outliers flagged (three or more)'
html\t'A self-contained HTML page: per-case change bars (green faster, red slower) and the table (two reports), or the node table with flagged cells marked (three or more)'"
complete -c perftest -n "__fish_perftest_using_subcommand compare" -s o -l output -d 'Write to FILE instead of stdout' -r -F
complete -c perftest -n "__fish_perftest_using_subcommand compare" -l fail-above -d 'Exit 5 when any case got slower by more than PCT percent (throughput B vs A; two reports)' -r
complete -c perftest -n "__fish_perftest_using_subcommand compare" -l fail-median -d 'Exit 5 when the median change over all cases is a slowdown of more than PCT percent (two reports)' -r
complete -c perftest -n "__fish_perftest_using_subcommand compare" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c perftest -n "__fish_perftest_using_subcommand render" -l format -d 'Output format' -r -f -a "text\t'Aligned table with time, relative speed, throughput and spread per case'
original\t'The original perftest\'s lines: `NAME: X.XXXms Y.YYYx`'
json\t'The full report with derived figures, as pretty-printed JSON (`perftest compare` reads it back)'
csv\t'One row per case, for spreadsheets'
markdown\t'A GitHub Markdown table'
html\t'A self-contained HTML page: per family a heatmap, a bar chart and the table; with sweep cases, the cache hierarchy\'s latency and bandwidth curves and levels'
svg\t'One SVG chart: the sweep\'s curves (when the report has sweep cases) and the families\' heatmaps, stacked'
bmf\t'Bencher Metric Format (JSON), for the Bencher dashboard'
benchmark-action\t'github-action-benchmark\'s `customBiggerIsBetter` JSON'"
complete -c perftest -n "__fish_perftest_using_subcommand render" -s o -l output -d 'Write to FILE (atomically) instead of stdout' -r -F
complete -c perftest -n "__fish_perftest_using_subcommand render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c perftest -n "__fish_perftest_using_subcommand help; and not __fish_seen_subcommand_from compare render help" -f -a "compare" -d 'Compare JSON reports. Two: per-case throughput ratio B/A, median and max change. Three or more (one per GPU or node): per case the median over them, each one\'s deviation, and outliers flagged (exit 6)'
complete -c perftest -n "__fish_perftest_using_subcommand help; and not __fish_seen_subcommand_from compare render help" -f -a "render" -d 'Print a saved JSON report again in another format (e.g. a Markdown table)'
complete -c perftest -n "__fish_perftest_using_subcommand help; and not __fish_seen_subcommand_from compare render help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
