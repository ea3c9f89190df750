import FuzzSupport

FuzzDriver.run(jsonFuzzerTestOneInput)
