import LinkCore
import Testing

@Suite struct CertificateFingerprintTests {
    static let canonical =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    @Test(arguments: [
        canonical,
        "14:6d:e9:83:c5:73:06:50:d8:ee:b9:95:2f:34:fc:64:16:a0:83:42:e6:1d:be:a8:8a:04:96:b2:3f:cf:44:e5",
        "146DE983C5730650D8EEB9952F34FC6416A08342E61DBEA88A0496B23FCF44E5",
        "146de983c5730650d8eeb9952f34fc6416a08342e61dbea88a0496b23fcf44e5",
        "14:6d:E9:83:c5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:e5",
    ])
    func normalisesFingerprints(text: String) throws {
        #expect(try CertificateFingerprint(text).description == Self.canonical)
        #expect(CertificateFingerprint.canonical(text) == Self.canonical)
        #expect(try CertificateFingerprint(text).bytes.count == 32)
    }

    @Test(arguments: [
        "",
        "14:6D:E9",
        // 31 pairs, 33 pairs.
        String(canonical.dropLast(3)), canonical + ":00",
        // Not hex, wrong separators, mixed forms.
        "G4:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5",
        "14-6D-E9-83-C5-73-06-50-D8-EE-B9-95-2F-34-FC-64-16-A0-83-42-E6-1D-BE-A8-8A-04-96-B2-3F-CF-44-E5",
        "146D:E983:C573:0650:D8EE:B995:2F34:FC64:16A0:8342:E61D:BEA8:8A04:96B2:3FCF:44E5",
        "146DE983C5730650D8EEB9952F34FC6416A08342E61DBEA88A0496B23FCF44E",
        "146DE983C5730650D8EEB9952F34FC6416A08342E61DBEA88A0496B23FCF44E5F",
        " 146DE983C5730650D8EEB9952F34FC6416A08342E61DBEA88A0496B23FCF44E",
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5:",
    ])
    func rejectsMalformedFingerprints(text: String) {
        #expect(throws: LinkError.self) { try CertificateFingerprint(text) }
        #expect(CertificateFingerprint.canonical(text) == nil)
    }

    @Test func errorsNameTheSettingAndTheValue() {
        #expect {
            try CertificateFingerprint("14:6D")
        } throws: { error in
            let error = error as? LinkError
            return error?.code == .invalidRequest
                && error?.details["field"] == "links.apps.android.sha256CertFingerprints"
                && error?.details["value"] == "14:6D"
        }
    }
}
