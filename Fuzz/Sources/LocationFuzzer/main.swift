import FuzzSupport

FuzzDriver.run(locationFuzzerTestOneInput)
