#if canImport(Glibc)
    import Glibc
#endif

/// The standard `process_*` metrics every Prometheus client library exports (CPU time, memory, file descriptors,
/// start time), read from `/proc` at each scrape, so that dashboards and alerts written for them work unchanged.
/// Linux only; a figure that cannot be read is left out.
enum ProcessMetrics {
    /// The families, in the exposition format, each with `# HELP` and `# TYPE`.
    static func render(into text: inout String) {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        if let stat = readStat(), ticks > 0 {
            family(
                "process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.",
                Double(stat.userTicks + stat.systemTicks) / ticks, into: &text)
            family(
                "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
                Double(stat.residentPages * sysconf(Int32(_SC_PAGESIZE))), into: &text)
            family(
                "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", Double(stat.virtualBytes),
                into: &text)
            if let bootTime = readBootTime() {
                family(
                    "process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.",
                    Double(bootTime) + Double(stat.startTicks) / ticks, into: &text)
            }
        }
        if let open = countOpenFiles() {
            family("process_open_fds", "gauge", "Number of open file descriptors.", Double(open), into: &text)
        }
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            family(
                "process_max_fds", "gauge", "Maximum number of open file descriptors.", Double(limit.rlim_cur),
                into: &text)
        }
    }

    private static func family(_ name: String, _ type: String, _ help: String, _ value: Double, into text: inout String)
    {
        let number = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(number)\n"
    }

    /// The fields of `/proc/self/stat` used here (proc(5): 14 utime, 15 stime, 22 starttime, 23 vsize, 24 rss).
    struct Stat: Equatable {
        var userTicks: Int
        var systemTicks: Int
        var startTicks: Int
        var virtualBytes: Int
        var residentPages: Int
    }

    /// Parses a `/proc/PID/stat` line. The second field, the command name in parentheses, may hold spaces and
    /// parentheses itself, so the fields are counted from the last `)`.
    static func parseStat(_ line: String) -> Stat? {
        guard let close = line.lastIndex(of: ")") else { return nil }
        // Field 3 (state) onwards.
        let fields = line[line.index(after: close)...].split(separator: " ")
        func field(_ number: Int) -> Int? {
            let index = number - 3
            return index < fields.count ? Int(fields[index]) : nil
        }
        guard let user = field(14), let system = field(15), let start = field(22), let virtual = field(23),
            let resident = field(24)
        else { return nil }
        return Stat(
            userTicks: user, systemTicks: system, startTicks: start, virtualBytes: virtual, residentPages: resident)
    }

    private static func readStat() -> Stat? {
        readFile("/proc/self/stat").flatMap(parseStat)
    }

    /// `btime` of `/proc/stat`: the boot time, in seconds since the epoch.
    private static func readBootTime() -> Int? {
        guard let text = readFile("/proc/stat") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return line.split(separator: " ").last.flatMap { Int($0) }
        }
        return nil
    }

    /// The entries of `/proc/self/fd`, less the one the listing itself holds open.
    private static func countOpenFiles() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { name in
                name[0] == UInt8(ascii: ".") && (name[1] == 0 || (name[1] == UInt8(ascii: ".") && name[2] == 0))
            }
            if !isDot { count += 1 }
        }
        return count - 1
    }

    /// A small file of `/proc`, whole (its size is not known before it is read).
    private static func readFile(_ path: String) -> String? {
        guard let bytes = try? FileBytes.read(path, chunk: 4096) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
