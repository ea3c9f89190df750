import LinkCore
import Testing

@Suite struct AndroidPackageNameTests {
    @Test(arguments: ["com.example.app", "com.example", "a.b", "Com.Example_1.app2", "org.x_y.z9"])
    func acceptsPackageNames(text: String) throws {
        #expect(try AndroidPackageName(text).description == text)
    }

    @Test(arguments: [
        "", "app", "com.", ".com", "com..app", "com.1app", "com._app", "com.example-app", "com.exämple", "com.ex ample",
    ])
    func rejectsMalformedPackageNames(text: String) {
        #expect(throws: LinkError.self) { try AndroidPackageName(text) }
    }

    @Test func errorsNameTheSettingAndTheValue() {
        #expect {
            try AndroidPackageName("app", field: "apps.android.package")
        } throws: { error in
            let error = error as? LinkError
            return error?.code == .invalidRequest && error?.details["field"] == "apps.android.package"
                && error?.details["value"] == "app" && error?.message.contains("'app'") == true
        }
    }
}
