import LinkCore
import Testing

@Suite struct JSONWriterTests {
    @Test func writesNestedContainersWithCommas() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("a")
        writer.int(1)
        writer.key("b")
        writer.beginArray()
        writer.string("x")
        writer.null()
        writer.beginObject()
        writer.endObject()
        writer.beginArray()
        writer.endArray()
        writer.endArray()
        writer.key("c")
        writer.string(nil as String?)
        writer.key("d\"")
        writer.value(["k": [true, 2.5]])
        writer.key("e")
        writer.stringObject([("p", "1"), ("q", "é\n")])
        writer.endObject()
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == #"{"a":1,"b":["x",null,{},[]],"c":null,"d\"":{"k":[true,2.5]},"e":{"p":"1","q":"é\n"}}"#)
    }
}
