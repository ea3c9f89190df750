import FuzzSupport

FuzzDriver.run(resourceFuzzerTestOneInput)
