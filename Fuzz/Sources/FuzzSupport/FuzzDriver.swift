import CLibFuzzer

#if canImport(Glibc)
    import Glibc
#endif

/// Runs libFuzzer on a target's test function with this process's arguments (libFuzzer flags, corpus folders).
public enum FuzzDriver {
    /// One input in, 0 out (libFuzzer's `LLVMFuzzerTestOneInput` contract).
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Fuzzes (or, given files, replays) `test` and exits with libFuzzer's status.
    public static func run(_ test: TestOneInput) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, test))
    }
}
